"""A real Arena book (data-samples/libra8.abk.xz) read by bookforge and converted to Polyglot,
then read back by an outside reader: Polyglot's own `dump-book` must find, in every position it
walks, the moves that bookforge's ABK reader gives there, with the same shares. The start
position is also checked against the ABK file's bytes, walked here without any chess code.

    abk_outside_reader.py BOOKFORGE SOURCE_DIR

Exits 77 (skipped) when /usr/games/polyglot, xz or the sample is absent.
"""
import csv
import io
import json
import lzma
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

POLYGLOT = "/usr/games/polyglot"


def root_moves_from_bytes(data):
    """The start position's moves (UCI) and games, straight from the entries (format.h)."""
    moves, index = [], 900
    while index != -1:
        frm, to, promo, _prio, games, _w, _l, _ply, _child, sibling = struct.unpack_from(
            "<BBbBIIIIii", data, index * 28)
        uci = "abcdefgh"[frm % 8] + str(frm // 8 + 1) + "abcdefgh"[to % 8] + str(to // 8 + 1)
        moves.append((uci + " rnbq"[abs(promo)].strip(), games))
        index = sibling
    return moves


def bookforge_positions(bookforge, book):
    """{line (SAN, space separated): {san: weight}} from bookforge's dump of the ABK book."""
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


def main():
    bookforge, source = sys.argv[1], sys.argv[2]
    sample = os.path.join(source, "data-samples", "libra8.abk.xz")
    if not (os.path.exists(POLYGLOT) and os.path.exists(sample)):
        print("skipped: needs", POLYGLOT, "and", sample)
        return 77
    folder = tempfile.mkdtemp()
    try:
        abk = os.path.join(folder, "libra8.abk")
        with lzma.open(sample) as src, open(abk, "wb") as dst:
            data = src.read()
            dst.write(data)
        probe = json.loads(subprocess.run([bookforge, "probe", abk, "--json"], check=True,
                                          capture_output=True, text=True).stdout)
        from_bytes = sorted(root_moves_from_bytes(data))
        from_probe = sorted((m["uci"], m["weight"]) for m in probe["moves"])
        assert from_bytes == from_probe, (from_bytes, from_probe)

        converted = os.path.join(folder, "libra8.bin")
        subprocess.run([bookforge, "merge", "-q", abk, "-o", converted], check=True)
        positions = bookforge_positions(bookforge, abk)
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
        missing = {p: set(positions[p]) - sans for p, sans in seen.items() if set(positions[p]) != sans}
        assert not missing, list(missing.items())[:5]
        print(f"{checked} (position, move) pairs of Polyglot's dump agree with the ABK reader")
        assert checked > 10000, checked
        return 0
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    sys.exit(main())
