"""The path a real cluster takes: a scheduler and workers started as separate processes with the
`dask scheduler` / `dask worker` commands, on loopback, and the job sent with --scheduler."""

import gzip
import json
import shutil
import subprocess
import time

import pytest

from conftest import LICHESS, TWIC, leftovers


class Cluster:
    def __init__(self, folder):
        self.folder = folder
        self.file = folder / "scheduler.json"
        self.procs = []
        self.start(["dask", "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                    "--scheduler-file", str(self.file)])
        deadline = time.monotonic() + 60
        while not self.file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert self.file.exists(), "the scheduler did not start"
        self.address = json.loads(self.file.read_text())["address"]

    def start(self, args, prefix=()):
        log = open(self.folder / f"process-{len(self.procs)}.log", "w")
        self.procs.append(subprocess.Popen(list(prefix) + args, stdout=log, stderr=subprocess.STDOUT))

    def add_worker(self, prefix=(), host="127.0.0.1", threads=1):
        self.start(["dask", "worker", "--scheduler-file", str(self.file), "--nworkers", "1", "--nthreads",
                    str(threads), "--no-dashboard", "--host", host], prefix)

    def wait_for_workers(self, n):
        from dask.distributed import Client

        with Client(self.address, timeout=60) as client:
            client.wait_for_workers(n, timeout=60)

    def stop(self):
        for p in reversed(self.procs):
            p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


@pytest.fixture
def cluster(tmp_path):
    if not shutil.which("dask"):
        pytest.skip("no dask command (Debian's python3-distributed)")
    c = Cluster(tmp_path)
    yield c
    c.stop()


def test_a_scheduler_and_two_workers_build_the_one_machine_book(tmp_path, cluster, driver, one_machine):
    cluster.add_worker()
    cluster.add_worker()
    cluster.wait_for_workers(2)
    reference = tmp_path / "one.bin"
    one_machine("build", TWIC, LICHESS, "-o", reference, "-q")
    book = tmp_path / "cluster.bin"
    work = tmp_path / "shared"
    r = driver("build", TWIC, LICHESS, "-o", book, "--parts", "2", "--scheduler", cluster.address,
               "--work-dir", work, local=0)
    assert r.returncode == 0, r.stderr
    assert "on 2 worker(s)" in r.stdout
    assert book.read_bytes() == reference.read_bytes()
    assert list(work.iterdir()) == []  # the job's work folder is gone
    # Without --parts: the two workers run on one machine, so the job is one build task with
    # their two threads.
    report = tmp_path / "report.json"
    r = driver("build", TWIC, LICHESS, "-o", book, "--scheduler", cluster.address, "--work-dir", work,
               "--report", report, local=0)
    assert r.returncode == 0, r.stderr
    assert "  build: 1 task(s)" in r.stdout and "  count:" not in r.stdout, r.stdout
    assert json.loads(report.read_text())["shards"][0]["threads"] == 2
    assert book.read_bytes() == reference.read_bytes()


def test_workers_of_two_machines_count_a_compressed_input_in_parts_of_their_threads(tmp_path, cluster, driver,
                                                                                    one_machine):
    # Two "machines" of two threads each: workers on two loopback addresses, which the scheduler
    # tells apart by host. A compressed input is read from its start, so it is cut into one part
    # per machine, each counted by bookforge on that machine's two threads.
    cluster.add_worker(host="127.0.0.1", threads=2)
    cluster.add_worker(host="127.0.0.2", threads=2)
    cluster.wait_for_workers(2)
    source = tmp_path / "games.pgn.gz"
    source.write_bytes(gzip.compress(TWIC.read_bytes() + b"\n" + LICHESS.read_bytes()))
    reference = tmp_path / "one.bin"
    one_machine("build", source, "-o", reference, "-q")
    book = tmp_path / "cluster.bin"
    report = tmp_path / "report.json"
    r = driver("build", source, "-o", book, "--scheduler", cluster.address, "--work-dir", tmp_path / "shared",
               "--report", report, local=0)
    assert r.returncode == 0, r.stderr
    assert book.read_bytes() == reference.read_bytes()
    shards = json.loads(report.read_text())["shards"]
    assert [(s["part"], s["threads"]) for s in shards] == [("0/2", 2), ("1/2", 2)]
    assert sorted(s["worker"].split("//")[1].split(":")[0] for s in shards) == ["127.0.0.1", "127.0.0.2"]


def test_a_worker_that_cannot_see_the_work_folder_fails_the_job_saying_so(tmp_path, cluster, driver):
    work = tmp_path / "shared"
    work.mkdir()
    hide = ["unshare", "-m", "sh", "-c", f"mount -t tmpfs tmpfs '{work}' && exec \"$0\" \"$@\""]
    if subprocess.run(hide + ["true"], capture_output=True).returncode != 0:
        pytest.skip("no mount namespaces with tmpfs mounts here (unshare -m, mount -t tmpfs)")
    cluster.add_worker()
    # A worker on "another machine": its own view of the filesystem, where the shared folder is
    # an empty one of its own.
    cluster.add_worker(prefix=hide)
    cluster.wait_for_workers(2)
    book = tmp_path / "cluster.bin"
    r = driver("build", TWIC, "-o", book, "--scheduler", cluster.address, "--work-dir", work, local=0)
    assert r.returncode == 1
    assert f"cannot see the work folder {work}" in r.stderr, r.stderr
    assert "shared filesystem" in r.stderr
    assert not book.exists()
    assert leftovers(tmp_path) == []
    assert list(work.iterdir()) == []


def test_an_unreachable_scheduler_is_named(tmp_path, driver):
    r = driver("build", TWIC, "-o", tmp_path / "b.bin", "--scheduler", "tcp://127.0.0.1:9", "--connect-timeout", "2",
               local=0)
    assert r.returncode == 1
    assert "cannot reach the scheduler at tcp://127.0.0.1:9" in r.stderr
    assert leftovers(tmp_path) == []
