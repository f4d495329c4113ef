"""python-chess for the checks that use it as an outside judge: its source tree, named by
BOOKFORGE_PYTHON_CHESS (scripts/fetch-references.sh), since Debian does not package it."""
import lzma
import os
import sys

MISSING = "set BOOKFORGE_PYTHON_CHESS to a python-chess source tree (scripts/fetch-references.sh)"


def use_python_chess():
    """Puts python-chess's tree first on the import path; False when none is named."""
    tree = os.environ.get("BOOKFORGE_PYTHON_CHESS", "")
    if not tree or not os.path.isdir(os.path.join(tree, "chess")):
        return False
    if tree not in sys.path:
        sys.path.insert(0, tree)
    return True


def read_games(pgn):
    """The games of a PGN file, plain or .xz, as python-chess reads them."""
    import chess.pgn
    opener = lzma.open if pgn.endswith(".xz") else open
    with opener(pgn, "rt", encoding="utf-8", errors="replace") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            yield game
