#!/usr/bin/env python3
"""bookforge's UCI engine plays Chess960 games from a Chess960 book, through a real UCI client.

The client is python-chess's engine module (niklasf/python-chess, fetched by
scripts/fetch-references.sh): it starts `bookforge uci --book BOOK`, turns UCI_Chess960 on
because the board is a Chess960 one, sends the positions with castling written king-takes-rook,
and refuses any move that is not legal. Debian's Stockfish plays the other side. The games start
from the start positions of the book's own games, so the engine's first moves come from the book:
the test counts how many moves were book moves, and every move must be legal.

usage: chess960_uci_game.py BOOKFORGE PGN [GAMES]
Skipped (exit 77) without BOOKFORGE_PYTHON_CHESS or without /usr/games/stockfish.
"""

import os
import subprocess
import sys
import tempfile

from python_chess_tree import MISSING, read_games, use_python_chess

SKIP = 77
STOCKFISH = "/usr/games/stockfish"


def main():
    bookforge, pgn = sys.argv[1], sys.argv[2]
    games = int(sys.argv[3]) if len(sys.argv) > 3 else 6
    if not use_python_chess():
        print("skipped:", MISSING)
        return SKIP
    if not os.access(STOCKFISH, os.X_OK):
        print(f"skipped: no {STOCKFISH}")
        return SKIP
    import chess
    import chess.engine
    import chess.polyglot

    starts = []
    for game in read_games(pgn):
        if len(starts) == games:
            break
        if game.board().chess960:
            starts.append(game.board())
    if len(starts) < games:
        print(f"only {len(starts)} Chess960 games in {pgn}")
        return 1

    with tempfile.TemporaryDirectory() as tmp:
        book = os.path.join(tmp, "960.bin")
        run = subprocess.run([bookforge, "build", pgn, "-o", book, "--variant", "chess960", "--max-ply", "12",
                              "--min-games", "0", "--min-move-games", "1", "--no-drop-losing",
                              "--max-score-drop", "1000", "--progress", "never"],
                             capture_output=True, text=True)
        if run.returncode != 0:
            print(f"bookforge build failed: {run.stderr.strip()}")
            return 1
        ours = chess.engine.SimpleEngine.popen_uci([bookforge, "uci", "--book", book])
        theirs = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
        plies = book_moves = our_moves = castles = 0
        failures = []
        try:
            with chess.polyglot.open_reader(book) as reader:
                for i, start in enumerate(starts):
                    board = start.copy()
                    while not board.is_game_over() and board.ply() < 60:
                        engine = ours if (board.ply() % 2 == i % 2) else theirs
                        limit = chess.engine.Limit(nodes=3000)
                        in_book = {e.move for e in reader.find_all(board)}
                        try:
                            move = engine.play(board, limit).move
                        except chess.engine.EngineError as e:  # an illegal or missing move
                            failures.append(f"game {i + 1}, ply {board.ply()}: {e}")
                            break
                        if engine is ours:
                            our_moves += 1
                            book_moves += move in in_book
                            castles += board.is_castling(move)
                        board.push(move)
                        plies += 1
        finally:
            ours.quit()
            theirs.quit()

    print(f"{len(starts)} Chess960 games through python-chess's UCI client: {plies} plies, "
          f"{our_moves} by bookforge ({book_moves} from its book, {castles} castles), "
          f"{len(failures)} illegal or missing moves")
    for f in failures:
        print("  " + f)
    if failures or book_moves == 0:
        print("FAILED")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
