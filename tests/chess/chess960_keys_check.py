#!/usr/bin/env python3
"""Compares bookforge's Polyglot keys of Chess960 positions with python-chess's.

Positions: every Chess960 position of the shared perft suites (SHARED_DATA/perft: Ethereal's
fischer.epd, pychess's frc_perftsuite.epd, the tricky.perft of python-chess and scalachess),
and the positions reached by random legal moves from them (castling chosen whenever it is
legal, more often than not, so that rights are used and lost in every way). bookforge replays
the same moves (UCI, king takes rook) from the start FEN with `bookforge key`, so its
incrementally updated key is what is compared.

  BOOKFORGE_PYTHON_CHESS=/tmp/pychess tests/chess/chess960_keys_check.py BOOKFORGE SHARED_DATA

BOOKFORGE_PYTHON_CHESS names a python-chess source tree; without it (or without the shared
data) the check says so and exits 77, skipped. Only python-chess's public API is used.
"""
import os
import pathlib
import random
import subprocess
import sys

SKIP = 77
WALKS = 600


def suite_fens(perft):
    fens = []
    for name in ("ethereal/fischer.epd", "pychess/frc_perftsuite.epd"):
        for line in (perft / name).read_text().splitlines():
            if line.strip():
                fens.append(line.split(";")[0].strip())
    for name in ("python-chess/tricky.perft", "scalachess/tricky.perft"):
        for line in (perft / name).read_text().splitlines():
            if line.startswith("epd "):
                fens.append(line[4:].strip())
    return fens


def main():
    source = os.environ.get("BOOKFORGE_PYTHON_CHESS")
    if not source:
        print("skipped: set BOOKFORGE_PYTHON_CHESS to a python-chess source tree")
        return SKIP
    bookforge = sys.argv[1]
    perft = pathlib.Path(sys.argv[2]) / "perft"
    if not perft.is_dir():
        print(f"skipped: no {perft}")
        return SKIP
    sys.path.insert(0, source)
    import chess
    import chess.polyglot

    rng = random.Random(960)
    cases = []  # (start FEN in Shredder-FEN, UCI moves, python-chess's key)
    for fen in suite_fens(perft):
        board = chess.Board(fen, chess960=True)
        cases.append((board.fen(shredder=True, en_passant="fen"), [], chess.polyglot.zobrist_hash(board)))
    starts = [c[0] for c in cases]
    castles = 0
    for _ in range(WALKS):
        board = chess.Board(rng.choice(starts), chess960=True)
        start = board.fen(shredder=True, en_passant="fen")
        moves = []
        for _ in range(rng.randrange(4, 60)):
            legal = list(board.legal_moves)
            if not legal:
                break
            castling = [m for m in legal if board.is_castling(m)]
            move = rng.choice(castling) if castling and rng.random() < 0.6 else rng.choice(legal)
            castles += board.is_castling(move)
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
    print(f"{agree} of {len(cases)} positions agree ({len(starts)} suite positions, {WALKS} random "
          f"walks with {castles} castling moves)")
    return 0 if agree == len(cases) else 1


if __name__ == "__main__":
    sys.exit(main())
