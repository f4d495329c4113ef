#!/usr/bin/env python3
"""A small match runner: `bookforge uci` against another UCI engine, full games under a clock.

It drives both engines exactly as a GUI or a match runner does (uci, isready, setoption,
ucinewgame, position startpos moves ..., go wtime/btime/winc/binc) and checks what a runner
checks: every move is legal (each position is replayed by `bookforge analyse`, which also tells
checkmate and stalemate), no engine overruns its clock (by more than --margin), every engine
answers. Draws by
threefold repetition, the fifty-move rule and a 400-ply cap are adjudicated here.

  bench/uci_match.py [--bookforge build/bin/bookforge] [--opponent /usr/games/stockfish]
                     [--games 4] [--tc 10+0.1] [--book BOOK.bin] [--skill 5] [--ponder]

With --ponder, bookforge ponders as a GUI lets it: after each of its moves it is sent the
expected reply and "go ponder"; then "ponderhit" if the opponent played that move (its clock runs
from there), or "stop" (the answer is read and dropped) and the real position otherwise.

With --book, bookforge plays with OwnBook on (its moves come from the book while the position
is in it). Stockfish's strength is lowered with its "Skill Level" option so games are played
out. Prints one line per game and a summary; exits 1 if any game ended on a forfeit (illegal
move, time loss or no answer).
"""
import argparse
import json
import os
import select
import subprocess
import sys
import time


class Engine:
    def __init__(self, command, name):
        self.name = name
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.pending = b""  # bytes read from the engine, not yet split into lines

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, prefix, timeout):
        """Lines up to and including the first that starts with prefix; None on timeout."""
        deadline = time.monotonic() + timeout
        lines = []
        while True:
            while b"\n" in self.pending:
                raw, self.pending = self.pending.split(b"\n", 1)
                line = raw.decode(errors="replace").strip()
                lines.append(line)
                if line.startswith(prefix):
                    return lines
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.proc.stdout], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.pending += chunk

    def start(self, options):
        self.send("uci")
        lines = self.read_until("uciok", 10)
        if lines is None:
            raise RuntimeError(f"{self.name}: no uciok")
        for name, value in options.items():
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        if self.read_until("readyok", 10) is None:
            raise RuntimeError(f"{self.name}: no readyok")
        ids = [line[8:] for line in lines if line.startswith("id name ")]
        if ids:
            self.name = ids[0]

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def position_state(bookforge, moves):
    """(result, fen) after the moves, from `bookforge analyse`; result None if play goes on."""
    args = [bookforge, "analyse", "--depth", "1", "--json"]
    if moves:
        args += ["--moves", " ".join(moves)]
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        return "illegal", done.stderr.strip()
    report = json.loads(done.stdout)
    result = report.get("result")
    return (result if result in ("checkmate", "stalemate") else None), report["fen"]


def ask_move(engine, moves, clocks, increment, ponder_state):
    """Sends the position and the search (or ponderhit) to the engine to move; returns the lines
    up to bestmove, or None. ponder_state is the expected reply the engine is pondering on (or
    None); it is resolved here: ponderhit if the last move is that reply, stop otherwise."""
    wtime, btime = int(clocks[0] * 1000), int(clocks[1] * 1000)
    inc = int(increment * 1000)
    if ponder_state is not None:
        if moves and moves[-1] == ponder_state:
            engine.send("ponderhit")
            return engine.read_until("bestmove", clocks[len(moves) % 2] + 5)
        engine.send("stop")
        if engine.read_until("bestmove", 5) is None:
            return None
    engine.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
    engine.send(f"go wtime {wtime} btime {btime} winc {inc} binc {inc}")
    return engine.read_until("bestmove", clocks[len(moves) % 2] + 5)


def play_game(bookforge, white, black, base, increment, margin, ponderer=None):
    """ponderer: the engine (ours) that ponders on the opponent's time, or None."""
    moves = []
    clocks = [base, base]
    engines = [white, black]
    seen = {}
    pondering_on = None  # the reply the ponderer expects, while it ponders
    for engine in engines:
        engine.send("ucinewgame")
        engine.send("isready")
        if engine.read_until("readyok", 10) is None:
            return "forfeit", f"{engine.name} did not answer isready", moves
    fen = None
    while True:
        state, fen_or_error = position_state(bookforge, moves)
        if state == "illegal":
            return "forfeit", f"illegal move {moves[-1]} by {engines[(len(moves) - 1) % 2].name}: {fen_or_error}", moves
        if state == "checkmate":
            return ("0-1" if len(moves) % 2 == 0 else "1-0"), "checkmate", moves
        if state == "stalemate":
            return "1/2-1/2", "stalemate", moves
        fen = fen_or_error
        fields = fen.split()
        position = " ".join(fields[:4])
        seen[position] = seen.get(position, 0) + 1
        if seen[position] >= 3:
            return "1/2-1/2", "threefold repetition", moves
        if int(fields[4]) >= 100:
            return "1/2-1/2", "fifty-move rule", moves
        if len(moves) >= 400:
            return "1/2-1/2", "400-ply cap", moves

        side = len(moves) % 2
        engine = engines[side]
        start = time.monotonic()
        lines = ask_move(engine, moves, clocks, increment, pondering_on if engine is ponderer else None)
        spent = time.monotonic() - start
        if engine is ponderer:
            pondering_on = None
        if lines is None:
            return "forfeit", f"{engine.name} gave no bestmove", moves
        clocks[side] -= spent
        if clocks[side] < -margin:
            return "forfeit", f"{engine.name} lost on time ({-clocks[side]:.3f} s over)", moves
        clocks[side] = max(clocks[side], 0.0)
        clocks[side] += increment
        words = lines[-1].split()
        move = words[1]
        if move in ("(none)", "0000"):
            return "forfeit", f"{engine.name} answered {move} in a position with legal moves", moves
        moves.append(move)
        if engine is ponderer and len(words) >= 4 and words[2] == "ponder":
            pondering_on = words[3]
            wtime, btime = int(clocks[0] * 1000), int(clocks[1] * 1000)
            inc = int(increment * 1000)
            engine.send("position startpos moves " + " ".join(moves + [pondering_on]))
            engine.send(f"go ponder wtime {wtime} btime {btime} winc {inc} binc {inc}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bookforge", default="build/bin/bookforge")
    parser.add_argument("--opponent", default="/usr/games/stockfish")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--tc", default="10+0.1", help="base seconds + increment")
    parser.add_argument("--book", help="Polyglot book for bookforge (OwnBook)")
    parser.add_argument("--skill", type=int, default=5, help="the opponent's Skill Level")
    parser.add_argument("--ponder", action="store_true", help="bookforge ponders (go ponder, ponderhit/stop)")
    parser.add_argument("--margin", type=float, default=0.1,
                        help="seconds an engine may overrun its clock (pipe and scheduling delays, "
                             "as match runners allow)")
    args = parser.parse_args()
    base, increment = (float(x) for x in args.tc.split("+"))

    ours = Engine([args.bookforge, "uci"], "bookforge")
    theirs = Engine([args.opponent], "opponent")
    our_options = {"Hash": 64, "Ponder": "true" if args.ponder else "false"}
    if args.book:
        our_options.update({"OwnBook": "true", "BookFile": args.book})
    ours.start(our_options)
    theirs.start({"Hash": 64, "Threads": 1, "Skill Level": args.skill})

    score = {"win": 0, "draw": 0, "loss": 0}
    forfeits = 0
    for game in range(args.games):
        white, black = (ours, theirs) if game % 2 == 0 else (theirs, ours)
        result, reason, moves = play_game(args.bookforge, white, black, base, increment, args.margin,
                                          ours if args.ponder else None)
        if result == "forfeit":
            forfeits += 1
        elif result == "1/2-1/2":
            score["draw"] += 1
        elif (result == "1-0") == (white is ours):
            score["win"] += 1
        else:
            score["loss"] += 1
        print(f"game {game + 1}: {white.name} - {black.name}: {result} ({reason}), {len(moves)} plies")
        sys.stdout.flush()
    ours.quit()
    theirs.quit()
    print(f"bookforge: +{score['win']} ={score['draw']} -{score['loss']}, {forfeits} forfeits, "
          f"tc {args.tc}{', ponder' if args.ponder else ''}, opponent skill {args.skill}")
    return 1 if forfeits else 0


if __name__ == "__main__":
    sys.exit(main())
