"""bookforge-dask db-add makes the store `bookforge db add` makes from the same games: the same
answers to `db explore` (every move's counts, slices, top and recent games) at many positions,
the same `db stats`, the same games read back."""

import json
import re

import pytest

from conftest import LICHESS, TWIC, leftovers, run


def opening_lines(source, games, plies):
    """The first `plies` SAN moves of the first `games` games of a PGN file."""
    lines = []
    for movetext in re.split(r"\n\[Event ", source.read_text())[:games]:
        body = movetext.split("\n\n", 1)[-1]
        body = re.sub(r"\{[^}]*\}|\([^)]*\)|\$\d+", " ", body)
        sans = [t for t in body.split() if not re.match(r"^\d+\.+$|^(1-0|0-1|1/2-1/2|\*)$", t)]
        sans = [re.sub(r"^\d+\.+", "", t) for t in sans]
        lines.append(sans[:plies])
    return lines


def answers(bookforge, db):
    """What a user can ask the store: stats, and explore (with slice filters) along opening
    lines, and the games explore names read back."""
    stats = run([bookforge, "db", "stats", "--db", db]).stdout
    # A source records when it was added: the one thing two stores of the same games differ in.
    out = {"stats": re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", "(added)", stats)}
    queries = [[]] + [line[:n] for line in opening_lines(TWIC, 25, 8) + opening_lines(LICHESS, 25, 8)
                      for n in (2, 5, 8)]
    for moves in queries:
        for extra in ([], ["--ratings", "2000,2200"], ["--since", "2016-01"]):
            args = [bookforge, "db", "explore", "--db", db, "--json", *extra]
            if moves:
                args += ["--moves", " ".join(moves)]
            r = run(args)
            out[" ".join(moves) + " " + " ".join(extra)] = r.stdout if r.returncode == 0 else r.stderr
    start = json.loads(run([bookforge, "db", "explore", "--db", db, "--json"]).stdout)
    ids = re.findall(r'"id":\s*"([^"]+)"', json.dumps(start))[:3]
    assert ids, "the start position names no game"
    for game in ids:
        out["game " + game] = run([bookforge, "db", "game", "--db", db, game]).stdout
    return out


@pytest.mark.parametrize("workers, split", [(2, ["--parts", "1"]), (2, ["--parts", "3"]), (1, []), (2, []),
                                            (1, ["--reduce", "direct"])])
def test_the_store_from_the_cluster_answers_as_the_one_machine_store(tmp_path, bookforge, driver, workers, split):
    one = tmp_path / "one.sqlite"
    r = run([bookforge, "db", "add", "--db", one, TWIC, LICHESS, "--progress", "never"])
    assert r.returncode == 0, r.stderr
    cluster = tmp_path / "cluster.sqlite"
    r = driver("db-add", "--db", cluster, TWIC, LICHESS, *split, local=workers)
    assert r.returncode == 0, r.stderr
    # Workers of one machine are one task, db add of the files on their threads; shards asked
    # for with --parts or --reduce are counted first.
    assert ("  count:" in r.stdout) == (split != []), r.stdout
    expected, got = answers(bookforge, one), answers(bookforge, cluster)
    assert len(expected) > 100
    for query in expected:
        assert got[query] == expected[query], query
    assert leftovers(tmp_path) == []


def test_a_store_grows_from_the_cluster_as_from_pgn(tmp_path, bookforge, driver):
    one = tmp_path / "one.sqlite"
    for source in (TWIC, LICHESS):
        assert run([bookforge, "db", "add", "--db", one, source, "--progress", "never",
                    "--game-plies", "10"]).returncode == 0
    cluster = tmp_path / "cluster.sqlite"
    for source in (TWIC, LICHESS):
        r = driver("db-add", "--db", cluster, source, "--game-plies", "10", "--parts", "2")
        assert r.returncode == 0, r.stderr
    assert answers(bookforge, cluster) == answers(bookforge, one)
    # A file the store holds is refused, naming it, and the store is left as it was.
    before = cluster.read_bytes()
    r = driver("db-add", "--db", cluster, TWIC, "--game-plies", "10")
    assert r.returncode == 1
    assert "twic0920-2000.pgn" in r.stderr, r.stderr
    assert cluster.read_bytes() == before
    assert leftovers(tmp_path) == []
