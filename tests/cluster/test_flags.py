"""The driver's table of build flags (cluster/bookforge_dask/flags.py) against bookforge's own
help: a flag added to `bookforge build` and not sorted into a step is found here, and every
flag the driver gives to `count` is one count takes."""

import re
import sys

from conftest import ROOT, run

sys.path.insert(0, str(ROOT / "cluster"))
from bookforge_dask import cli, flags  # noqa: E402


def flag_names(help_text):
    names = set()
    for line in help_text.splitlines():
        m = re.match(r"\s+((?:-\w,)?--[\w-]+(?:,!?--[\w-]+)?)", line)
        if m:
            for name in m.group(1).split(","):
                names.add(name.lstrip("!"))
    return names


def test_every_build_flag_is_sorted_into_a_step_or_refused(bookforge):
    build = flag_names(run([bookforge, "build", "--help"]).stdout)
    assert "--min-elo" in build and "--rescore-depth" in build  # the help was read
    unsorted = build - set(flags.ALL) - set(flags.REFUSED) - set(cli.DRIVER_OPTIONS)
    assert unsorted == set()


def test_every_counting_flag_is_one_count_takes(bookforge):
    count = flag_names(run([bookforge, "count", "--help"]).stdout)
    missing = (set(flags.COUNTING) | set(flags.COUNTING_AND_RULES)) - count
    assert missing == set()


def test_flags_are_sorted_with_their_values():
    s = flags.sort_flags(["--min-elo", "2000", "--results", "1-0", "0-1", "--rules", "polyglot",
                          "--rescore-depth=6", "--exits", "x.epd", "--exit-depth", "4"])
    assert s.counting == ["--min-elo", "2000", "--results", "1-0", "0-1", "--rules", "polyglot"]
    assert s.rules == ["--rules", "polyglot"]
    assert flags.sort_flags(["--weight", "rating"]).counting == ["--weight", "rating"]
    assert s.rescoring == ["--rescore-depth", "6"]
    assert s.exits == {"--exits": "x.epd", "--exit-depth": "4"}
    assert flags.exits_command_flags(s.exits) == ["--depth", "4"]


def test_every_command_has_help():
    from conftest import DRIVER

    for command in ("build", "db-add", "exits"):
        r = run([DRIVER, command, "--help"])
        assert r.returncode == 0, r.stderr
        assert "--scheduler" in r.stdout and "--local" in r.stdout
    r = run([DRIVER, "--help"])
    assert r.returncode == 0 and "bookforge-dask build" in r.stdout
    r = run([DRIVER, "nothing"])
    assert r.returncode == 2 and "unknown command 'nothing'" in r.stderr
