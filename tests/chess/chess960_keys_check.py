#!/usr/bin/env python3
"""Compares bookforge's Polyglot keys of Chess960 positions with python-chess's.

Positions: every Chess960 position of the shared perft suites (../shared/data/perft), and the
positions reached by random legal moves from a sample of them (castling preferred whenever it
is legal, so that rights are used and lost in every way). bookforge replays the same moves
(UCI, king takes rook) from the start FEN with `bookforge key`, so its incrementally updated
key is what is compared.

  BOOKFORGE_PYTHON_CHESS=/tmp/pychess tests/chess/chess960_keys_check.py build/bin/bookforge

Without BOOKFORGE_PYTHON_CHESS (a python-chess source tree) it says so and exits 0: skipped.
"""
import os
import pathlib
import random
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
PERFT = HERE.parent.parent.parent / "shared" / "data" / "perft"


def suite_fens():
    fens = []
    for line in (PERFT / "ethereal" / "fischer.epd").read_text().splitlines():
        if line.strip():
            fens.append(line.split(";")[0].strip())
    for line in (PERFT / "pychess" / "frc_perftsuite.epd").read_text().splitlines():
        if line.strip():
            fens.append(line.split(";")[0].strip())
    for name in ("python-chess/tricky.perft", "scalachess/tricky.perft"):
        for line in (PERFT / name).read_text().splitlines():
            if line.startswith("epd "):
                fens.append(line[4:].strip())
    return fens


def main():
    source = os.environ.get("BOOKFORGE_PYTHON_CHESS")
    if not source:
        print("skipped: set BOOKFORGE_PYTHON_CHESS to a python-chess source tree")
        return 0
    sys.path.insert(0, source)
    import chess
    import chess.polyglot

    bookforge = sys.argv[1] if len(sys.argv) > 1 else "build/bin/bookforge"
    rng = random.Random(960)
    cases = []  # (start FEN in Shredder notation, UCI moves, expected key)
    for fen in suite_fens():
        board = chess.Board(fen, chess960=True)
        start = board.fen(shredder=True, en_passant="fen")
        cases.append((start, [], chess.polyglot.zobrist_hash(board)))
    starts = [c[0] for c in cases]
    for walk in range(600):
        board = chess.Board(rng.choice(starts), chess960=True)
        start = board.fen(shredder=True, en_passant="fen")
        moves = []
        for _ in range(rng.randrange(4, 60)):
            legal = list(board.legal_moves)
            if not legal:
                break
            castles = [m for m in legal if board.is_castling(m)]
            move = rng.choice(castles) if castles and rng.random() < 0.6 else rng.choice(legal)
            moves.append(board.uci(move, chess960=True))
            board.push(move)
        cases.append((start, moves, chess.polyglot.zobrist_hash(board)))

    agree = 0
    for start, moves, want in cases:
        out = subprocess.run([bookforge, "key", "--fen", start, "--moves", " ".join(moves)],
                             capture_output=True, text=True)
        got = out.stdout.strip()
        if out.returncode == 0 and int(got, 16) == want:
            agree += 1
        else:
            print(f"DIFFER {start} moves {' '.join(moves)}: bookforge {got or out.stderr.strip()}, "
                  f"python-chess {want:016x}")
    print(f"{agree} of {len(cases)} positions agree")
    return 0 if agree == len(cases) else 1


if __name__ == "__main__":
    sys.exit(main())
