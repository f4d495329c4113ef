"""The engine's work on the cluster: the rescoring's searches and the exit positions' searches
spread over the workers in batches give the one-machine book, suspicious-move list and EPD,
byte for byte (every search starts from a cleared engine, with a depth or node budget)."""

import pytest

from conftest import LICHESS, TWIC, leftovers

RESCORING = {
    "depth": ["--rescore-depth", "5"],
    "nodes, propagated": ["--rescore-nodes", "3000", "--rescore-propagate", "--rescore-repair"],
    "blend, engine alone": ["--rescore-depth", "4", "--rescore-blend", "0.5", "--rescore-engine-alone"],
    "hand-written evaluation": ["--rescore-depth", "5", "--rescore-eval", "classical"],
}


@pytest.mark.parametrize("name", sorted(RESCORING))
def test_rescoring_on_the_cluster_gives_the_one_machine_book(tmp_path, driver, one_machine, name):
    rules = ["--min-move-games", "20"] + RESCORING[name]
    one_machine("build", TWIC, LICHESS, "-o", tmp_path / "one.bin", "--suspicious", tmp_path / "one.csv", "-q",
                *rules)
    r = driver("build", TWIC, LICHESS, "-o", tmp_path / "cluster.bin", "--suspicious", tmp_path / "cluster.csv",
               "--parts", "2", "--batches", "5", *rules, local=3)
    assert r.returncode == 0, r.stderr
    assert "rescore: 5 task(s)" in r.stdout
    assert (tmp_path / "cluster.bin").read_bytes() == (tmp_path / "one.bin").read_bytes()
    assert (tmp_path / "cluster.csv").read_text() == (tmp_path / "one.csv").read_text()
    assert leftovers(tmp_path) == []


def test_one_machine_rescores_and_finds_exits_in_its_one_build_as_one_machine(tmp_path, driver, one_machine):
    # Workers of one machine: the whole build is one task, with every flag of the build, on
    # their two threads.
    rules = ["--min-move-games", "20", "--max-ply", "16"] + RESCORING["depth"]
    exits = ["--exit-depth", "4", "--exit-eval-min", "-80", "--exit-eval-max", "80"]
    one_machine("build", TWIC, "-o", tmp_path / "one.bin", "--suspicious", tmp_path / "one.csv",
                "--exits", tmp_path / "one.epd", "-q", *rules, *exits)
    r = driver("build", TWIC, "-o", tmp_path / "cluster.bin", "--suspicious", tmp_path / "cluster.csv",
               "--exits", tmp_path / "cluster.epd", *rules, *exits, local=2, processes=False)
    assert r.returncode == 0, r.stderr
    assert "  build: 1 task(s)" in r.stdout, r.stdout
    for name in ("bin", "csv", "epd"):
        assert (tmp_path / f"cluster.{name}").read_bytes() == (tmp_path / f"one.{name}").read_bytes(), name
    assert (tmp_path / "one.epd").read_text().count("\n") > 5
    assert leftovers(tmp_path) == []


def test_exits_of_a_build_on_the_cluster_are_the_one_machine_exits(tmp_path, driver, one_machine):
    flags = ["--min-move-games", "20", "--exit-depth", "4", "--exit-eval-min", "-80", "--exit-eval-max", "80"]
    one_machine("build", TWIC, "-o", tmp_path / "one.bin", "--exits", tmp_path / "one.epd", "-q", *flags)
    r = driver("build", TWIC, "-o", tmp_path / "cluster.bin", "--exits", tmp_path / "cluster.epd", *flags)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "cluster.epd").read_bytes() == (tmp_path / "one.epd").read_bytes()
    assert (tmp_path / "one.epd").read_text().count("\n") > 20


@pytest.mark.parametrize("batches", ["1", "3", "7"])
def test_the_exits_command_scores_a_book_in_batches(tmp_path, driver, one_machine, batches):
    # The UHO-style recipe: the exits of a book whose score lies in a window, as one command.
    one_machine("build", TWIC, LICHESS, "-o", tmp_path / "book.bin", "--min-move-games", "10", "-q")
    window = ["--depth", "4", "--eval-min", "30", "--eval-max", "150"]
    one_machine("exits", tmp_path / "book.bin", "-o", tmp_path / "one.epd", "-q", *window)
    r = driver("exits", tmp_path / "book.bin", "-o", tmp_path / "cluster.epd", "--batches", batches, *window)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "cluster.epd").read_bytes() == (tmp_path / "one.epd").read_bytes()
    assert "exit positions" in r.stdout


def test_the_exits_command_builds_the_book_of_pgn_inputs_first(tmp_path, driver, one_machine):
    one_machine("build", TWIC, "-o", tmp_path / "book.bin", "--min-move-games", "10", "-q")
    one_machine("exits", tmp_path / "book.bin", "-o", tmp_path / "one.epd", "--depth", "3", "-q")
    r = driver("exits", TWIC, "-o", tmp_path / "cluster.epd", "--min-move-games", "10", "--depth", "3")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "cluster.epd").read_bytes() == (tmp_path / "one.epd").read_bytes()
    assert leftovers(tmp_path) == []


def test_exits_scored_by_stockfish_on_the_cluster_are_the_one_machine_exits(tmp_path, driver, one_machine):
    import shutil

    stockfish = shutil.which("stockfish") or "/usr/games/stockfish"
    if not shutil.os.access(stockfish, shutil.os.X_OK):
        pytest.skip("no stockfish")
    one_machine("build", TWIC, "-o", tmp_path / "book.bin", "--min-move-games", "30", "-q")
    window = ["--engine", stockfish, "--depth", "5", "--eval-min", "-100", "--eval-max", "100"]
    one_machine("exits", tmp_path / "book.bin", "-o", tmp_path / "one.epd", "-q", *window)
    r = driver("exits", tmp_path / "book.bin", "-o", tmp_path / "cluster.epd", "--batches", "4", *window)
    assert r.returncode == 0, r.stderr
    # Stockfish at a fixed depth, one thread, a new game per position: the same scores here.
    assert (tmp_path / "cluster.epd").read_text() == (tmp_path / "one.epd").read_text()
    assert "Stockfish" in (tmp_path / "one.epd").read_text()
