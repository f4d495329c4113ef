#!/usr/bin/env python3
"""Chess960 games counted by bookforge against an independent count by python-chess.

python-chess (niklasf/python-chess, fetched by scripts/fetch-references.sh; no code of bookforge)
reads the same PGN, replays every Chess960 game (its Variant tag makes the board a Chess960 one),
and counts, for each position of the first MAX_PLY plies, the games that played each move there:
a move once per game, a position by its Polyglot key as python-chess computes it. bookforge builds
a book of the same games that keeps every move with its games as the weight. Then, for every
position python-chess counted, python-chess's own Polyglot reader probes bookforge's book: the
moves it finds (castling decoded by python-chess as a Chess960 castle) and their weights must be
python-chess's counts exactly, and the book must hold no entry python-chess did not count.

usage: chess960_independent_count.py BOOKFORGE PGN [MAX_PLY]
Skipped (exit 77) when BOOKFORGE_PYTHON_CHESS does not name a python-chess source tree.
"""

import collections
import os
import subprocess
import sys
import tempfile

from python_chess_tree import MISSING, read_games, use_python_chess

SKIP = 77


def main():
    bookforge, pgn = sys.argv[1], sys.argv[2]
    max_ply = int(sys.argv[3]) if len(sys.argv) > 3 else 16
    if not use_python_chess():
        print("skipped:", MISSING)
        return SKIP
    import chess
    import chess.polyglot

    # The independent count.
    counts = collections.defaultdict(collections.Counter)  # key -> move (uci) -> games
    boards = {}
    games = 0
    for game in read_games(pgn):
        if game.errors:
            print(f"python-chess could not read game {games + 1}: {game.errors[0]}")
            return 1
        board = game.board()
        if not board.chess960:
            continue
        games += 1
        seen = set()
        for ply, move in enumerate(game.mainline_moves()):
            if max_ply and ply >= max_ply:  # 0: whole games, as bookforge's --max-ply 0
                break
            key = chess.polyglot.zobrist_hash(board)
            pair = (key, board.uci(move, chess960=True))
            if pair not in seen:
                seen.add(pair)
                counts[key][pair[1]] += 1
                boards.setdefault(key, board.copy(stack=False))
            board.push(move)

    with tempfile.TemporaryDirectory() as tmp:
        book = os.path.join(tmp, "960.bin")
        build = [bookforge, "build", pgn, "-o", book, "--variant", "chess960", "--max-ply", str(max_ply),
                 "--min-games", "0", "--min-move-games", "1", "--no-drop-losing", "--max-score-drop", "1000",
                 "--weight", "games", "--keep-duplicates", "--progress", "never"]
        run = subprocess.run(build, capture_output=True, text=True)
        if run.returncode != 0:
            print(f"bookforge build failed: {run.stderr.strip()}")
            return 1
        print(run.stdout.strip())
        entries_in_book = os.path.getsize(book) // 16
        differences = []
        entries = 0
        with chess.polyglot.open_reader(book) as reader:
            for key, moves in counts.items():
                board = boards[key]
                found = collections.Counter()
                for entry in reader.find_all(board):
                    found[board.uci(entry.move, chess960=True)] += entry.weight
                    entries += 1
                if found != moves:
                    differences.append((board.fen(), dict(moves), dict(found)))

    print(f"python-chess: {games} Chess960 games, {len(counts)} positions, "
          f"{sum(len(m) for m in counts.values())} (position, move) pairs in "
          f"{'whole games' if max_ply == 0 else f'the first {max_ply} plies'}")
    print(f"bookforge's book: {entries_in_book} entries; {entries} found by python-chess's reader")
    for fen, want, got in differences[:10]:
        print(f"  {fen}: python-chess counts {want}, the book gives {got}")
    if differences or entries != entries_in_book:
        print(f"FAILED: {len(differences)} position(s) differ; "
              f"{entries_in_book - entries} book entries python-chess did not count")
        return 1
    print("the same: every position, move and count")
    return 0


if __name__ == "__main__":
    sys.exit(main())
