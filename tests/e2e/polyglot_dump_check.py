"""What the outside-reader tests of converted books share: bookforge's dump of a book, and
Polyglot's own `dump-book` of its conversion, compared position by position.

A book converted by `bookforge merge` must give, read by Polyglot (/usr/games/polyglot), in
every position Polyglot's dump walks, the moves and shares (within 1%) that bookforge's dump of
the original book gives there, and no fewer moves.
"""
import csv
import io
import os
import re
import subprocess

from python_chess_tree import use_python_chess

POLYGLOT = "/usr/games/polyglot"


def bookforge_positions(bookforge, book):
    """{line (SAN, space separated): {san: weight}} from bookforge's dump of `book`."""
    out = subprocess.run([bookforge, "dump", book, "--format", "csv"], check=True,
                         capture_output=True, text=True).stdout
    positions = {}
    for row in csv.DictReader(io.StringIO(out)):
        positions.setdefault(row["line"], {})[row["san"]] = int(row["weight"])
    return positions


def polyglot_lines(book, color, folder):
    """Polyglot's dump: each line as [(san, percent or None)], percent on `color`'s moves."""
    out = os.path.join(folder, color + ".txt")
    subprocess.run([POLYGLOT, "dump-book", "-bin", book, "-color", color, "-out", out],
                   check=True, capture_output=True)
    lines = []
    with open(out) as f:
        for text in f:
            if not re.match(r"^\d+:", text):
                continue
            text = re.sub(r"\{trans:[^}]*\}", "", text.split(":", 1)[1])
            line = []
            for token in text.split():
                if re.fullmatch(r"\d+\.", token):
                    continue
                m = re.fullmatch(r"(\S+?)(?:\{(\d+)%\})?", token)
                line.append((m.group(1), int(m.group(2)) if m.group(2) else None))
            lines.append(line)
    return lines


def compare_with_polyglot(bookforge, book, converted, folder):
    """Checks Polyglot's dump of `converted` against bookforge's dump of `book`; returns the
    number of (position, move) pairs compared. Weight-0 moves are left out of Polyglot's dump,
    so only moves with a weight are looked for there."""
    positions = bookforge_positions(bookforge, book)
    checked = 0
    seen = {}  # prefix -> the moves Polyglot's dump shows there
    for color, parity in (("white", 0), ("black", 1)):
        for line in polyglot_lines(converted, color, folder):
            for ply, (san, percent) in enumerate(line):
                if percent is None or ply % 2 != parity:
                    continue
                prefix = " ".join(s for s, _ in line[:ply])
                moves = positions.get(prefix)
                if moves is None:  # bookforge's dump reached it by another line first
                    continue
                assert san in moves, (color, prefix, san, moves)
                seen.setdefault(prefix, set()).add(san)
                share = 100.0 * moves[san] / sum(moves.values())
                assert abs(share - percent) <= 1.0, (color, prefix, san, percent, moves)
                checked += 1
    # And no move is missing: where Polyglot lists a position's moves, it lists them all.
    missing = {p: {s for s, w in positions[p].items() if w > 0} - sans for p, sans in seen.items()}
    missing = {p: m for p, m in missing.items() if m}
    assert not missing, list(missing.items())[:5]
    return checked


def compare_with_python_chess(bookforge, book, converted):
    """Checks `converted` read by python-chess's Polyglot reader (a source tree named by
    BOOKFORGE_PYTHON_CHESS, scripts/fetch-references.sh) against bookforge's dump of `book`: in
    every position the dump lists, python-chess's moves and weights must be the dump's moves with
    a weight, exactly. Returns the (position, move) pairs compared, or None without python-chess."""
    if not use_python_chess():
        return None
    import chess
    import chess.polyglot

    checked = 0
    with chess.polyglot.open_reader(converted) as reader:
        for line, moves in bookforge_positions(bookforge, book).items():
            board = chess.Board()
            for san in line.split():
                board.push_san(san)
            found = {board.san(e.move): e.weight for e in reader.find_all(board)}
            wanted = {san: weight for san, weight in moves.items() if weight > 0}
            assert found == wanted, (line, wanted, found)
            checked += len(found)
    return checked
