"""`bookforge db novelty`'s counts against an independent count.

A store is made with `db add` from twic0920.pgn, and `db novelty --json` walks a few games
through it (lichess games, which leave the masters' tree early, and twic games, which stay in it
until they are alone there). Independently, pgn-extract replays the source and the walked games
(legality, SAN, FEN: none of bookforge's chess code) and this script counts, for every
(position, move) of the source's games within the store's max-ply, the games that played it
once or more, by result. Each move of each path must have the counts the script found: the
games of the position (over all its moves) and of the move with white / draws / black; the
novelty must be the first move with fewer than --min-games games. The same with a slice
(--until), against a count of the source's games of that slice.

Positions are compared by the first four FEN fields as pgn-extract writes them with --nofauxep
(an en-passant square only when the capture is possible), which is how a Polyglot key sees them.

Usage: novelty_independent_count.py BOOKFORGE SHARED_DATA. Exits 77 (skipped) when pgn-extract or
the data is absent.
"""

import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
TAG = re.compile(r'^\[(\w+) "(.*)"\]\s*$')
MOVE_AND_FEN = re.compile(r"([a-h][1-8][a-h][1-8][qrbn]?)\s*\{\s*([^}]*?)\s*\}")
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"


def pgn_extract():
    for path in (shutil.which("pgn-extract"), "/usr/games/pgn-extract"):
        if path and os.access(path, os.X_OK):
            return path
    return None


def position(fen):
    return " ".join(fen.split()[:4])


def replayed_games(tool, pgn_path, max_ply):
    """Each game of the file as (tags, [(position before, uci move)]), up to max_ply plies."""
    text = subprocess.run(
        [tool, "-s", "--quiet", "-Wuci", "--fencomments", "--nofauxep", "--noresults", "-V", pgn_path],
        check=True, capture_output=True, text=True, encoding="latin-1").stdout
    games, tags, movetext = [], {}, []

    def finish():
        if tags:
            before = position(tags.get("FEN", START))
            plies = []
            for uci, fen in MOVE_AND_FEN.findall(" ".join(movetext)):
                plies.append((before, uci))
                before = position(fen)
            games.append((dict(tags), plies[:max_ply] if max_ply else plies))

    for line in text.splitlines():
        m = TAG.match(line)
        if m:
            if movetext:
                finish()
                tags, movetext = {}, []
            tags[m.group(1)] = m.group(2)
        elif line.strip():
            movetext.append(line)
    if movetext or tags:
        finish()
    return games


def count(games):
    """(position, move) -> [games, white, draws, black]; a game counts once per pair."""
    counts = collections.defaultdict(lambda: [0, 0, 0, 0])
    by_result = {"1-0": 1, "1/2-1/2": 2, "0-1": 3}
    for tags, plies in games:
        for pair in set(plies):
            c = counts[pair]
            c[0] += 1
            if tags.get("Result") in by_result:
                c[by_result[tags["Result"]]] += 1
    return counts


def run(*args):
    done = subprocess.run(list(args), capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(args)}: exit {done.returncode}\n{done.stderr}")
    return done.stdout


def cut_games(path, numbers, out):
    """Writes the games of `path` with these 1-based numbers to `out`."""
    with open(path, encoding="latin-1") as f:
        text = f.read()
    starts = [m.start() for m in re.finditer(r"^\[Event |^\[Site ", text, re.M)]
    # A game starts at its first tag: Site starts the lichess games, which have no Event.
    first = "[Event " if text.startswith("[Event ") else "[Site "
    starts = [s for s in starts if text.startswith(first, s)] + [len(text)]
    with open(out, "a", encoding="latin-1") as f:
        for n in numbers:
            f.write(text[starts[n - 1]:starts[n]].rstrip() + "\n\n")


def check(bookforge, db, walked, source_counts, walked_games, min_games, slice_flags=()):
    answer = json.loads(run(bookforge, "db", "novelty", "--db", db, walked, "--json",
                            "--min-games", str(min_games), *slice_flags))
    assert answer["bad_games"] == [], answer["bad_games"]
    assert len(answer["games"]) == len(walked_games), (len(answer["games"]), len(walked_games))
    position_games = collections.Counter()
    for (pos, _), c in source_counts.items():
        position_games[pos] += c[0]
    checked = left = 0
    for game, (_, plies) in zip(answer["games"], walked_games):
        path = game["path"]
        assert path, game
        for i, step in enumerate(path):
            pos, uci = plies[i]
            assert step["uci"] == uci, (game["game"], i, step["uci"], uci)
            want = source_counts.get((pos, uci), [0, 0, 0, 0])
            got = [step["games"], step["white"], step["draws"], step["black"]]
            assert got == want, (game["game"], step["ply"], step["san"], got, want)
            assert step["position_games"] == position_games[pos], (game["game"], step, position_games[pos])
            is_last = i == len(path) - 1
            assert (want[0] < min_games) == (is_last and game["left_tree"]), (game["game"], step)
            checked += 1
        if game["left_tree"]:
            left += 1
            assert game["novelty"] == path[-1]
        else:
            assert len(path) == len(plies), (game["game"], len(path), len(plies))
    print(f"min-games {min_games} {' '.join(slice_flags)}: {len(walked_games)} games, {left} left the tree, "
          f"{checked} path moves match the independent count")
    return left


def main():
    bookforge, shared = sys.argv[1], sys.argv[2]
    tool = pgn_extract()
    source = os.path.join(shared, "games", "twic0920.pgn")
    lichess = os.path.join(shared, "games", "lichess-org-database_2017-05.pgn")
    if not tool or not os.path.exists(source) or not os.path.exists(lichess):
        print("skipped: pgn-extract or the shared games are absent")
        return SKIP
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "twic.sqlite")
        run(bookforge, "db", "add", "--db", db, "--progress", "never", source)
        stats = json.loads(run(bookforge, "db", "stats", "--db", db, "--json"))
        max_ply = stats["sources"][0]["max_ply"]
        source_games = replayed_games(tool, source, max_ply)
        # db add drops duplicate games; the count below assumes there are none to drop.
        assert stats["games"] == len(source_games), (stats["games"], len(source_games))
        walked = os.path.join(tmp, "walked.pgn")
        cut_games(lichess, [1, 2, 3, 50, 250], walked)
        cut_games(source, [1, 2, 100, 1000, 2245], walked)
        walked_games = replayed_games(tool, walked, max_ply)
        counts = count(source_games)
        left = check(bookforge, db, walked, counts, walked_games, 1)
        assert left >= 5, "the lichess games should leave the masters' tree"
        left_rarely = check(bookforge, db, walked, counts, walked_games, 3)
        assert left_rarely == len(walked_games), "every game is alone in the tree at some point"
        # A slice: the games up to May 2012 (twic's Date tags all give their month).
        early = [g for g in source_games if g[0].get("Date", "")[:7].replace(".", "-") <= "2012-05"]
        assert 0 < len(early) < len(source_games)
        check(bookforge, db, walked, count(early), walked_games, 1, ("--until", "2012-05"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
