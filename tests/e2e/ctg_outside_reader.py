"""ChessBase CTG books read by bookforge, checked against two outside readers:

1. chess-tools (npm, tests/clients/ctg_chess_tools.mjs), which reads the .ctg on its own: for
   every position bookforge's dump lists, the book's record of that position (found by its board
   as the book stores it: side to move as White, mirrored when the format says so) must have as
   many moves as bookforge gives, and every move chess-tools decodes must be one of them.
   chess-tools 0.3.0 gets some fields wrong (it decodes no squares for rook and king moves, reads
   castling rights one bit off, its Black-to-move view of a record moves the wrong pawns, and it
   steps sideways the wrong way: 1. e4 c5 2. Nc3, code 0x34, comes out as b1a3, and does not
   count steps around the board, so a long move can land off it: "c5c12"), so only its
   White-to-move view of each record is used, moves it decodes to no square on the board are
   counted apart, and a move with a sideways step is compared with that step turned round
   (counted apart too); a board that several records share (they differ in castling or en
   passant only) is skipped.
2. Polyglot's own dump-book, on the book converted by `bookforge merge` (polyglot_dump_check.py).

    ctg_outside_reader.py BOOKFORGE SOURCE_DIR

Reads data-samples/simple.ctg.xz, and also the book $BOOKFORGE_CTG_BOOK names (a .ctg path) when
set: larger real books are commercial and are not shipped. Exits 77 (skipped) when node,
chess-tools, /usr/games/polyglot or the sample is absent.
"""
import csv
import io
import json
import lzma
import os
import re
import shutil
import subprocess
import sys
import tempfile

from polyglot_dump_check import POLYGLOT, compare_with_polyglot, compare_with_python_chess


def stored_orientation(fen):
    """(flipped, mirrored): how the CTG format turns this position to store it."""
    board, side, castling = fen.split()[:3]
    flipped = side == "b"
    king = "k" if flipped else "K"
    for row in board.split("/"):
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
                continue
            if ch == king:
                return flipped, castling == "-" and file < 4
            file += 1
    raise ValueError(fen)


def stored_board(fen, flipped, mirrored):
    """The FEN board field of the position as the book stores it."""
    rows = []
    for row in fen.split()[0].split("/"):
        squares = "".join("." * int(ch) if ch.isdigit() else ch for ch in row)
        rows.append(squares[::-1] if mirrored else squares)
    if flipped:
        rows = [r.swapcase() for r in reversed(rows)]
    return "/".join(compact(r) for r in rows)


def compact(squares):
    out, empty = "", 0
    for ch in squares:
        if ch == ".":
            empty += 1
            continue
        out += (str(empty) if empty else "") + ch
        empty = 0
    return out + (str(empty) if empty else "")


def real_square(square, flipped, mirrored):
    file, rank = square[0], int(square[1])
    if mirrored:
        file = "abcdefgh"[7 - "abcdefgh".index(file)]
    if flipped:
        rank = 9 - rank
    return file + str(rank)


def real_move(from_to, flipped, mirrored):
    """chess-tools' move on the stored board, as UCI on the real board (no promotion letter)."""
    return real_square(from_to[:2], flipped, mirrored) + real_square(from_to[2:4], flipped, mirrored)


def turned_round(from_to):
    """chess-tools' move with its sideways step the other way (same from square and ranks)."""
    to_file = 2 * ord(from_to[0]) - ord(from_to[2])  # chess-tools may step off the board
    return from_to[:2] + chr(to_file) + from_to[3]


def compare_with_chess_tools(bookforge, book, clients):
    out = subprocess.run(["node", os.path.join(clients, "ctg_chess_tools.mjs"), book], check=True,
                         capture_output=True, text=True).stdout
    by_board = {}
    for line in out.splitlines():
        record = json.loads(line)
        by_board.setdefault(record["board"], []).append(record)
    dump = subprocess.run([bookforge, "dump", book, "--format", "csv"], check=True,
                          capture_output=True, text=True).stdout
    ours = {}
    for row in csv.DictReader(io.StringIO(dump)):
        ours.setdefault(row["fen"], set()).add(row["uci"][:4])
    figures = {"positions": 0, "shared boards": 0, "moves": 0, "of which turned round": 0,
               "undecoded or off the board": 0}
    for fen, moves in ours.items():
        flipped, mirrored = stored_orientation(fen)
        records = by_board.get(stored_board(fen, flipped, mirrored), [])
        assert records, ("chess-tools has no record of", fen)
        if len(records) > 1:
            figures["shared boards"] += 1
            continue
        theirs = records[0]["moves"]
        assert len(theirs) == len(moves), (fen, sorted(moves), theirs)
        for m in theirs:
            castling = {"O-O": "e1g1", "O-O-O": "e1c1"}.get(m["from_to"])
            from_to = castling or m["from_to"]
            sideways = len(from_to) >= 4 and from_to[0] != from_to[2] and not castling
            if sideways:
                from_to = turned_round(from_to)
            if not re.fullmatch("[a-h][1-8][a-h][1-8]", from_to):
                figures["undecoded or off the board"] += 1
                continue
            figures["of which turned round"] += sideways
            assert real_move(from_to, flipped, mirrored) in moves, (fen, m, sorted(moves))
            figures["moves"] += 1
        figures["positions"] += 1
    return figures


def check_book(bookforge, book, clients, folder):
    figures = compare_with_chess_tools(bookforge, book, clients)
    converted = os.path.join(folder, "converted.bin")
    subprocess.run([bookforge, "merge", "-q", book, "-o", converted], check=True)
    figures["polyglot pairs"] = compare_with_polyglot(bookforge, book, converted, folder)
    by_python_chess = compare_with_python_chess(bookforge, book, converted)
    if by_python_chess is not None:
        figures["python-chess pairs"] = by_python_chess
    print(os.path.basename(book), ", ".join(f"{k} {v}" for k, v in figures.items()))
    assert figures["positions"] > 0 and figures["moves"] > 0 and figures["polyglot pairs"] > 0, figures
    return figures


def main():
    bookforge, source = sys.argv[1], sys.argv[2]
    sample = os.path.join(source, "data-samples", "simple.ctg.xz")
    clients = os.path.join(source, "tests", "clients")
    needed = [POLYGLOT, sample, os.path.join(clients, "node_modules", "chess-tools")]
    if shutil.which("node") is None or not all(os.path.exists(p) for p in needed):
        print("skipped: needs node and", ", ".join(needed))
        return 77
    folder = tempfile.mkdtemp()
    try:
        simple = os.path.join(folder, "simple.ctg")
        with lzma.open(sample) as src, open(simple, "wb") as dst:
            dst.write(src.read())
        check_book(bookforge, simple, clients, folder)
        extra = os.environ.get("BOOKFORGE_CTG_BOOK")
        if extra:
            figures = check_book(bookforge, extra, clients, folder)
            assert figures["positions"] > 1000, figures
        else:
            print("BOOKFORGE_CTG_BOOK is not set: only the shipped sample was read")
        return 0
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    sys.exit(main())
