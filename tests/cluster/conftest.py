"""What the cluster tests share: the bookforge binary (BOOKFORGE, as ctest gives it, or the
build's), the driver run as a user runs it, the samples, and one-machine references."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "data-samples"
TWIC = SAMPLES / "twic0920-2000.pgn"
LICHESS = SAMPLES / "lichess-2016-05-1000.pgn"
DRIVER = ROOT / "cluster" / "bookforge-dask"
SHARED_GAMES = ROOT.parent / "shared" / "data" / "games"


def bookforge_binary():
    found = os.environ.get("BOOKFORGE") or str(ROOT / "build" / "bin" / "bookforge")
    if not os.access(found, os.X_OK):
        pytest.skip(f"no bookforge binary at {found} (build it, or set BOOKFORGE)")
    return found


@pytest.fixture(scope="session")
def bookforge():
    return bookforge_binary()


def run(args, **kwargs):
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, **kwargs)


@pytest.fixture
def driver(bookforge):
    """Runs bookforge-dask as a user does (its own interpreter, from its shebang)."""

    def go(*args, local=2, processes=True, **kwargs):
        extra = ["--bookforge", bookforge, "--progress", "never"]
        if local and "--scheduler" not in args:
            # Worker processes, as a cluster's are, unless a test asks for the default threads.
            extra += ["--local", str(local)] + (["--local-processes"] if processes else [])
        return run([DRIVER, *args, *extra], **kwargs)

    return go


@pytest.fixture
def one_machine(bookforge):
    """bookforge itself: the reference every cluster result must equal."""

    def go(*args):
        r = run([bookforge, *args])
        assert r.returncode == 0, r.stderr
        return r

    return go


def leftovers(folder):
    """Anything a job left beside its outputs: temporary files and work folders."""
    return sorted(p.name for p in Path(folder).iterdir() if ".tmp" in p.name or "bookforge-dask" in p.name)
