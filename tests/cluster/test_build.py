"""bookforge-dask build on a LocalCluster makes the book `bookforge build` makes, byte for byte:
for 1, 2 and 3 workers, for whole files and parts of them as shards, for any number of key
ranges, and under every rule preset."""

import json
import os
import re
import sys

import pytest

from conftest import LICHESS, ROOT, SAMPLES, TWIC, leftovers

sys.path.insert(0, str(ROOT / "cluster"))
from bookforge_dask import cli, jobs  # noqa: E402

RULES = {
    "default": [],
    "polyglot": ["--rules", "polyglot"],
    "rating": ["--weight", "rating", "--min-move-games", "2", "--max-ply", "40"],
    "filtered": ["--min-avg-elo", "2000", "--results", "1-0", "0-1", "--min-plies", "20"],
}


@pytest.mark.parametrize(
    "workers, split",
    [
        (1, []),
        (1, ["--reduce", "direct"]),
        (2, []),
        (3, []),
        (2, ["--parts", "3"]),
        (3, ["--parts", "5", "--partitions", "16"]),
        (2, ["--partitions", "1", "--reduce", "direct"]),
        (2, ["--parts", "3", "--reduce", "ranges"]),
        (3, ["--parts", "4", "--partitions", "8", "--reduce", "ranges"]),
        (2, ["--parts", "3", "--reduce", "direct"]),
    ],
)
def test_books_equal_one_machine_for_any_workers_and_split(tmp_path, driver, one_machine, workers, split):
    reference = tmp_path / "one.bin"
    one_machine("build", TWIC, LICHESS, "-o", reference, "-q")
    book = tmp_path / "cluster.bin"
    r = driver("build", TWIC, LICHESS, "-o", book, *split, local=workers, processes=workers != 2)
    assert r.returncode == 0, r.stderr
    assert book.read_bytes() == reference.read_bytes()
    assert f"on {workers} worker(s)" in r.stdout
    # The rules ran a task per key range when asked to, or for more than 8 sets (each reading
    # its range of every set: no separate reduce), and as one task reading the sets otherwise.
    sets = workers * (int(split[split.index("--parts") + 1]) if "--parts" in split else 1)
    if "--parts" not in split and "--reduce" not in split:
        # Workers of one machine: the job is one task, bookforge build with their threads.
        assert "  build: 1 task(s)" in r.stdout and "  count:" not in r.stdout, r.stdout
    else:
        spread = "ranges" in split or ("direct" not in split and sets > 8)
        assert ("  rules: 1 task(s)" not in r.stdout) == spread, r.stdout
    assert "  merge:" not in r.stdout
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("rules", sorted(RULES))
def test_books_equal_one_machine_under_every_rule_preset(tmp_path, driver, one_machine, rules):
    reference = tmp_path / "one.bin"
    one_machine("build", TWIC, LICHESS, "-o", reference, "-q", *RULES[rules])
    book = tmp_path / "cluster.bin"
    r = driver("build", TWIC, LICHESS, "-o", book, "--parts", "2", *RULES[rules])
    assert r.returncode == 0, r.stderr
    assert book.read_bytes() == reference.read_bytes()


@pytest.mark.parametrize("variant", ["chess960", "any"])
def test_chess960_books_equal_one_machine(tmp_path, driver, one_machine, variant):
    # Chess960 games (the shipped Stockfish self-play sample, .xz) in parts, alone or with
    # standard games.
    chess960 = SAMPLES / "stockfish960-400.pgn.xz"
    reference = tmp_path / "one.bin"
    one_machine("build", chess960, TWIC, "-o", reference, "-q", "--variant", variant, "--min-move-games", "2")
    book = tmp_path / "cluster.bin"
    r = driver("build", chess960, TWIC, "-o", book, "--parts", "2", "--variant", variant, "--min-move-games", "2")
    assert r.returncode == 0, r.stderr
    assert book.read_bytes() == reference.read_bytes()
    assert reference.stat().st_size > 0


def first_games(source, count):
    """The first `count` games of a PGN file, as text."""
    text = source.read_text()
    starts = [i for i in range(len(text)) if text.startswith("[Event ", i)]
    return text[: starts[count]] if count < len(starts) else text


@pytest.mark.parametrize("whole_book", [["--prune-unreachable"], ["--exits", "EXITS", "--exit-depth", "2"]])
def test_rules_that_need_the_whole_book_run_on_the_merged_ranges(tmp_path, driver, one_machine, whole_book):
    # Reachability and the exits look beyond one position: the reduce merges the ranges (a task
    # each), then one task applies the rules to the whole.
    flags = [str(tmp_path / "one.epd") if f == "EXITS" else f for f in whole_book]
    one_machine("build", TWIC, LICHESS, "-o", tmp_path / "one.bin", "-q", *flags)
    flags = [str(tmp_path / "cluster.epd") if f == "EXITS" else f for f in whole_book]
    r = driver("build", TWIC, LICHESS, "-o", tmp_path / "cluster.bin", "--parts", "2", "--reduce", "ranges", *flags)
    assert r.returncode == 0, r.stderr
    assert "  merge:" in r.stdout and "  rules: 1 task(s)" in r.stdout, r.stdout
    assert (tmp_path / "cluster.bin").read_bytes() == (tmp_path / "one.bin").read_bytes()
    if "--exits" in whole_book:
        assert (tmp_path / "cluster.epd").read_bytes() == (tmp_path / "one.epd").read_bytes()


def test_games_in_two_shards_are_counted_once_as_on_one_machine(tmp_path, driver, one_machine):
    # Another file holding the first 300 games of one input: each is in two shards.
    subset = tmp_path / "subset.pgn"
    subset.write_text(first_games(TWIC, 300))
    reference = tmp_path / "one.bin"
    one = one_machine("build", TWIC, subset, LICHESS, "-o", reference)
    book = tmp_path / "cluster.bin"
    report = tmp_path / "report.json"
    r = driver("build", TWIC, subset, LICHESS, "-o", book, "--parts", "2", "--report", report)
    assert r.returncode == 0, r.stderr
    assert book.read_bytes() == reference.read_bytes()
    facts = json.loads(report.read_text())
    assert facts["shards_recounted"] >= 1
    assert f"from {facts['games']} games" in one.stdout


@pytest.mark.parametrize("reduce, stages", [("auto", ["build"]), ("direct", ["count", "rules"])])
def test_one_worker_counts_its_inputs_in_one_pass_and_drops_shared_games_there(tmp_path, driver, one_machine,
                                                                                reduce, stages):
    subset = tmp_path / "subset.pgn"
    subset.write_text(first_games(TWIC, 300))
    reference = tmp_path / "one.bin"
    one = one_machine("build", TWIC, subset, LICHESS, "-o", reference)
    book = tmp_path / "cluster.bin"
    report = tmp_path / "report.json"
    r = driver("build", TWIC, subset, LICHESS, "-o", book, "--report", report, "--reduce", reduce, local=1)
    assert r.returncode == 0, r.stderr
    assert book.read_bytes() == reference.read_bytes()
    facts = json.loads(report.read_text())
    assert [s["inputs"] for s in facts["shards"]] == [[str(TWIC), str(subset), str(LICHESS)]]
    # One shard: by default a build of it all in one task; --reduce direct counts it first.
    assert [s["stage"] for s in facts["stages"]] == stages
    assert f"from {facts['games']} games (300 duplicates dropped" in one.stdout
    assert leftovers(tmp_path) == []


class Machines:
    """A session's view of its workers, without a cluster: `threads` worker threads on one
    machine or on several."""

    def __init__(self, threads, one_machine):
        self.workers = self.slots = threads
        self.machine_threads = 1
        self.one_machine = one_machine


@pytest.mark.parametrize("one_machine", [True, False])
def test_workers_of_one_machine_build_in_one_task_with_their_threads(tmp_path, one_machine):
    inputs = [tmp_path / "a.pgn", tmp_path / "b.pgn"]
    for path in inputs:
        path.write_text("1. e4 e5 1-0\n")

    def plan(threads, *flags):
        options = cli.driver_parser("build").parse_args(list(flags))
        job = jobs.Job(Machines(threads, one_machine), options, str(tmp_path))
        shards = job.plan([str(p) for p in inputs])
        one = job.one_task(shards)
        return [([os.path.basename(i) for i in s.inputs], s.part) for s in shards], one is not None, \
            one.threads if one else None

    if one_machine:
        assert plan(4) == ([(["a.pgn", "b.pgn"], "")], True, 4)
    else:
        # Workers on several machines: a shard a thread, counted.
        assert plan(4) == ([(["a.pgn"], "0/2"), (["a.pgn"], "1/2"), (["b.pgn"], "0/2"), (["b.pgn"], "1/2")], False, None)
    # --parts and --reduce ask for the counted path on one machine too.
    assert plan(2, "--parts", "1") == ([(["a.pgn"], ""), (["b.pgn"], "")], False, None)
    assert plan(4, "--reduce", "direct")[1] is False


def test_shards_are_runs_of_whole_inputs_within_a_workers_share_or_parts():
    sizes = {"a": 10, "b": 10, "c": 10, "d": 30, "e": 5}
    size = sizes.__getitem__

    def plan(inputs, parts, workers, **limits):
        return [(s.inputs, s.part) for s in jobs.plan_shards(inputs, parts, workers, size=size, **limits)]

    # Each shard knows its bytes (a part its share), which orders the map's tasks.
    assert [s.bytes for s in jobs.plan_shards(["a", "b", "d", "c", "e"], 0, 2, size=size)] == [20, 30, 15]
    assert [s.bytes for s in jobs.plan_shards(["d"], 3, 1, size=size)] == [10, 10, 10]

    assert plan(["a", "b", "c"], 0, 1) == [(["a", "b", "c"], "")]
    assert plan(["a", "b", "c"], 0, 2) == [(["a"], ""), (["b"], ""), (["c"], "")]
    # A share is 65 / 2 bytes: the small inputs are grouped in order, the big one stays alone.
    assert plan(["a", "b", "d", "c", "e"], 0, 2) == [(["a", "b"], ""), (["d"], ""), (["c", "e"], "")]
    # Fewer inputs than workers: parts, enough for every worker.
    assert plan(["a", "b"], 0, 3) == [(["a"], "0/2"), (["a"], "1/2"), (["b"], "0/2"), (["b"], "1/2")]
    # No group grows past group_bytes: beyond it, many tasks balance the workers better.
    assert plan(["a", "b", "c", "e"], 0, 1, group_bytes=20) == [(["a", "b"], ""), (["c", "e"], "")]
    # --parts N cuts every input, and --parts 1 keeps each whole input a shard.
    assert plan(["a", "b"], 2, 1) == [(["a"], "0/2"), (["a"], "1/2"), (["b"], "0/2"), (["b"], "1/2")]
    assert plan(["a", "b", "c"], 1, 1) == [(["a"], ""), (["b"], ""), (["c"], "")]


def test_compressed_inputs_are_cut_only_as_far_as_their_readers_keep_the_threads_busy():
    # A part of a compressed input decompresses the stream from its start: a .zst keeps about
    # four counting threads busy, a .bz2 one, and a part takes as many threads as one worker has.
    kinds = {"m.zst": "zst", "m.gz": "gz", "m.bz2": "bz2", "m.xz": "xz", "m.pgn": ""}

    def plan(inputs, slots, machine_threads):
        shards = jobs.plan_shards(inputs, 0, slots, machine_threads, size=lambda p: 10, compressed=kinds.get)
        return [(s.inputs[0], s.part, s.threads) for s in shards]

    # A lichess month on 8 workers of 16 threads: one task of 4 threads, not 128 parts.
    assert plan(["m.zst"], 128, 16) == [("m.zst", "", 4)]
    # Workers of 2 threads: two parts of 2 threads; of one: four parts of one.
    assert plan(["m.zst"], 8, 2) == [("m.zst", "0/2", 2), ("m.zst", "1/2", 2)]
    assert plan(["m.zst"], 8, 1) == [("m.zst", f"{i}/4", 1) for i in range(4)]
    # A share smaller than a reader feeds: as many threads as the share.
    assert plan(["m.zst", "m.gz"], 4, 4) == [("m.zst", "", 2), ("m.gz", "", 2)]
    assert plan(["m.gz"], 16, 1) == [("m.gz", f"{i}/3", 1) for i in range(3)]
    # bzip2 and xz decompress slower than one thread counts: never cut.
    assert plan(["m.bz2", "m.xz"], 64, 8) == [("m.bz2", "", 1), ("m.xz", "", 1)]
    # A plain input finds its part's range at little cost: a part a slot, a thread each.
    assert plan(["m.pgn"], 3, 16) == [("m.pgn", f"{i}/3", 1) for i in range(3)]


def test_compression_is_told_from_the_first_bytes(tmp_path):
    import bz2
    import gzip
    import lzma

    samples = {"a": gzip.compress(b"[Event"), "b": bz2.compress(b"[Event"), "c": lzma.compress(b"[Event"),
               "d": bytes.fromhex("28b52ffd") + b"\0" * 8, "e": bytes.fromhex("502a4d18") + b"\0" * 8,
               "f": b"[Event \"x\"]\n"}
    for name, data in samples.items():
        (tmp_path / name).write_bytes(data)
    assert {n: jobs.compression(tmp_path / n) for n in samples} == \
        {"a": "gz", "b": "bz2", "c": "xz", "d": "zst", "e": "zst", "f": ""}


def test_tasks_of_several_threads_go_to_the_workers_with_most_threads_free():
    from types import SimpleNamespace

    from bookforge_dask.session import Session

    workers = SimpleNamespace(threads={"tcp://a": 16, "tcp://b": 16, "tcp://c": 8})
    # Each task of several threads to the worker with the most free (the least busy of equals);
    # tasks of one thread to wherever the scheduler puts them.
    assert Session.place(workers, [11, 11, 11, 1]) == ["tcp://a", "tcp://b", "tcp://c", None]
    assert Session.place(workers, [4] * 6) == ["tcp://a", "tcp://b", "tcp://a", "tcp://b", "tcp://c", "tcp://a"]


def test_the_biggest_shards_start_first(tmp_path, driver, one_machine):
    # On one worker thread the shards run one after another: the biggest first, whatever the
    # order of the inputs, so that the biggest do not end the map alone.
    games = LICHESS.read_text().split("\n\n[Site ")  # the sample's games start with their Site tag
    assert len(games) == 1000
    small, rest = tmp_path / "small.pgn", tmp_path / "rest.pgn"
    small.write_text("\n\n[Site ".join(games[:100]) + "\n")
    rest.write_text("[Site " + "\n\n[Site ".join(games[100:]))
    reference = tmp_path / "one.bin"
    one_machine("build", small, TWIC, rest, "-o", reference, "-q")
    book, report = tmp_path / "cluster.bin", tmp_path / "report.json"
    r = driver("build", small, TWIC, rest, "-o", book, "--parts", "1", "--report", report, local=1,
               processes=False)
    assert r.returncode == 0, r.stderr
    assert book.read_bytes() == reference.read_bytes()
    shards = json.loads(report.read_text())["shards"]
    assert [os.path.basename(s["inputs"][0]) for s in sorted(shards, key=lambda s: s["started"])] == \
        ["twic0920-2000.pgn", "rest.pgn", "small.pgn"]


def test_the_same_content_twice_is_refused_naming_it(tmp_path, driver):
    # Two inputs of the same bytes would be the same shards twice (counted: on one machine the
    # one task is bookforge build, which drops the second copy's games as duplicates).
    copy = tmp_path / "copy.pgn"
    copy.write_bytes(TWIC.read_bytes())
    book = tmp_path / "cluster.bin"
    r = driver("build", TWIC, copy, "-o", book, "--reduce", "direct")
    assert r.returncode == 1
    assert "copy.pgn" in r.stderr and "counted twice" in r.stderr
    assert not book.exists()
    assert leftovers(tmp_path) == []


def test_the_report_says_what_ran(tmp_path, driver):
    book = tmp_path / "cluster.bin"
    report = tmp_path / "report.json"
    r = driver("build", TWIC, LICHESS, "-o", book, "--parts", "2", "--report", report)
    assert r.returncode == 0, r.stderr
    facts = json.loads(report.read_text())
    assert facts["workers"] == 2
    assert len(facts["shards"]) == 4
    assert [s["stage"] for s in facts["stages"]][:1] == ["count"]
    # The rules' own report (bookforge build --report) is kept whole.
    assert facts["games"] == facts["build"]["games"]["accepted"] == 3000
    assert facts["build"]["entries"] > 0
    assert facts["counts_bytes"] > 0 and facts["counts_bytes_per_game"] > 0


def test_progress_is_shown_when_asked(tmp_path, bookforge):
    from conftest import DRIVER, run

    r = run([DRIVER, "build", TWIC, "-o", tmp_path / "b.bin", "--local", "1", "--bookforge", bookforge,
             "--progress", "always", "--parts", "2", "--reduce", "ranges"])
    assert r.returncode == 0, r.stderr
    # Every stage ends on a line with all of its tasks done, and its rate.
    for stage in ("count", "rules"):
        assert re.search(rf"bookforge-dask: {stage} (\d+)/\1 tasks, [0-9.]+/s\n", r.stderr), r.stderr


@pytest.mark.parametrize("reduce", ["ranges", "direct"])
def test_an_empty_book_is_refused_as_on_one_machine(tmp_path, driver, reduce):
    book = tmp_path / "cluster.bin"
    r = driver("build", TWIC, LICHESS, "-o", book, "--min-games", "1000000", "--reduce", reduce)
    assert r.returncode == 1
    assert "empty book not written: the selection rules kept no move of the 3000 game(s) kept" in r.stderr, r.stderr
    assert not book.exists()
    assert leftovers(tmp_path) == []
    r = driver("build", TWIC, LICHESS, "-o", book, "--min-games", "1000000", "--reduce", reduce, "--allow-empty")
    assert r.returncode == 0, r.stderr
    assert book.read_bytes() == b""
