"""A real Arena book (data-samples/libra8.abk.xz) read by bookforge and converted to Polyglot,
then read back by an outside reader: Polyglot's own `dump-book` must find, in every position it
walks, the moves that bookforge's ABK reader gives there, with the same shares. The start
position is also checked against the ABK file's bytes, walked here without any chess code.

    abk_outside_reader.py BOOKFORGE SOURCE_DIR

Exits 77 (skipped) when /usr/games/polyglot, xz or the sample is absent.
"""
import json
import lzma
import os
import shutil
import struct
import subprocess
import sys
import tempfile

from polyglot_dump_check import POLYGLOT, compare_with_polyglot, compare_with_python_chess


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
        checked = compare_with_polyglot(bookforge, abk, converted, folder)
        print(f"{checked} (position, move) pairs of Polyglot's dump agree with the ABK reader")
        assert checked > 10000, checked
        by_python_chess = compare_with_python_chess(bookforge, abk, converted)
        if by_python_chess is not None:
            print(f"{by_python_chess} (position, move) pairs python-chess reads in the conversion agree")
            assert by_python_chess > 10000, by_python_chess
        return 0
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    sys.exit(main())
