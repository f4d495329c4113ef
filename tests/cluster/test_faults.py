"""Faults on the cluster: a worker killed mid-run, a corrupt input, damaged or mismatched counts,
a missing input, no Dask. A job either makes the one-machine result or fails saying why,
naming the shard or file, and leaves nothing behind."""

import os
import re
import signal
import subprocess
import threading
import time

import psutil

from conftest import DRIVER, LICHESS, TWIC, leftovers, run


def big_input(folder):
    """A file large enough that counting its parts takes a while: the samples, twenty times."""
    path = folder / "big.pgn"
    with open(path, "wb") as out:
        for _ in range(20):
            out.write(TWIC.read_bytes())
            out.write(LICHESS.read_bytes())
    return path


def kill_a_worker_while_it_counts(driver_pid, killed):
    """SIGKILLs the worker process running the first `bookforge count` seen under the driver."""
    deadline = time.monotonic() + 120
    try:
        driver = psutil.Process(driver_pid)
    except psutil.NoSuchProcess:
        return
    while time.monotonic() < deadline and not killed and driver.is_running():
        try:
            children = driver.children(recursive=True)
        except (psutil.NoSuchProcess, psutil.ZombieProcess):
            return
        for child in children:
            try:  # a process seen a moment ago may be gone: look at the next one
                cmd = child.cmdline()
                if len(cmd) > 1 and cmd[1] == "count" and "--part" in cmd:
                    worker = child.parent()
                    killed.append((worker.pid, " ".join(cmd)))
                    os.kill(worker.pid, signal.SIGKILL)
                    return
            except (psutil.NoSuchProcess, psutil.ZombieProcess, psutil.AccessDenied, ProcessLookupError):
                continue
        time.sleep(0.005)


def test_a_worker_killed_mid_count_still_gives_the_one_machine_book(tmp_path, bookforge, one_machine):
    source = big_input(tmp_path)
    reference = tmp_path / "one.bin"
    one_machine("build", source, "-o", reference, "-q")
    book = tmp_path / "cluster.bin"
    proc = subprocess.Popen(
        [DRIVER, "build", source, "-o", book, "--parts", "8", "--local", "3", "--local-processes",
         "--bookforge", bookforge, "--progress", "never"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    killed = []
    killer = threading.Thread(target=kill_a_worker_while_it_counts, args=(proc.pid, killed))
    killer.start()
    out, err = proc.communicate(timeout=300)
    killer.join()
    assert killed, "no worker was caught counting: the test proved nothing"
    assert proc.returncode == 0, err
    assert book.read_bytes() == reference.read_bytes()
    assert leftovers(tmp_path) == []


def test_a_corrupt_shard_fails_the_job_naming_it_and_writes_no_book(tmp_path, driver):
    good = tmp_path / "good.pgn.zst"
    subprocess.run(["zstd", "-q", str(TWIC), "-o", str(good)], check=True)
    corrupt = tmp_path / "corrupt.pgn.zst"
    data = good.read_bytes()
    corrupt.write_bytes(data[: len(data) // 2])  # cut short mid-frame
    book = tmp_path / "cluster.bin"
    r = driver("build", good, corrupt, LICHESS, "-o", book, "--parts", "2")
    assert r.returncode == 1
    # The shard is named: which of the job's shards, its input and its part.
    assert re.search(r"shard \d of 6 \(\S*corrupt\.pgn\.zst part [01]/2\): bookforge count", r.stderr), r.stderr
    assert not book.exists()
    assert leftovers(tmp_path) == []


def test_a_missing_input_is_refused_before_anything_runs(tmp_path, driver):
    book = tmp_path / "cluster.bin"
    r = driver("build", TWIC, tmp_path / "nowhere.pgn", "-o", book)
    assert r.returncode == 2
    assert "nowhere.pgn: no such file" in r.stderr
    assert not book.exists()
    assert leftovers(tmp_path) == []


def count(bookforge, source, set_dir, *flags):
    r = run([bookforge, "count", source, "-o", set_dir, "--progress", "never", *flags])
    assert r.returncode == 0, r.stderr


def test_sets_counted_apart_build_the_one_machine_book_on_the_cluster(tmp_path, bookforge, driver, one_machine):
    count(bookforge, TWIC, tmp_path / "a", "--partitions", "4")
    count(bookforge, LICHESS, tmp_path / "b", "--partitions", "8")
    reference = tmp_path / "one.bin"
    one_machine("build", TWIC, LICHESS, "-o", reference, "-q")
    book = tmp_path / "cluster.bin"
    r = driver("build", "--from-counts", tmp_path / "a", tmp_path / "b", "-o", book)
    assert r.returncode == 0, r.stderr
    assert book.read_bytes() == reference.read_bytes()


def test_a_damaged_counts_file_is_refused_naming_it(tmp_path, bookforge, driver):
    count(bookforge, TWIC, tmp_path / "a", "--partitions", "2")
    count(bookforge, LICHESS, tmp_path / "b", "--partitions", "2")
    damaged = tmp_path / "b" / "range-0001-of-0002.counts"
    data = bytearray(damaged.read_bytes())
    data[len(data) // 2] ^= 0x5A
    damaged.write_bytes(bytes(data))
    book = tmp_path / "cluster.bin"
    r = driver("build", "--from-counts", tmp_path / "a", tmp_path / "b", "-o", book)
    assert r.returncode == 1
    assert "range-0001-of-0002.counts" in r.stderr, r.stderr
    assert not book.exists()
    assert leftovers(tmp_path) == []


def test_sets_counted_with_other_options_are_refused_naming_the_option(tmp_path, bookforge, driver):
    count(bookforge, TWIC, tmp_path / "a", "--max-ply", "40")
    count(bookforge, LICHESS, tmp_path / "b")
    book = tmp_path / "cluster.bin"
    r = driver("build", "--from-counts", tmp_path / "a", tmp_path / "b", "-o", book)
    assert r.returncode == 1
    assert "max_ply: 40 in" in r.stderr, r.stderr
    assert not book.exists()
    assert leftovers(tmp_path) == []


def test_flags_the_cluster_cannot_take_are_refused_with_the_reason(tmp_path, driver):
    r = driver("build", TWIC, "-o", tmp_path / "b.bin", "--since", "2019-01")
    assert r.returncode == 2
    assert "--since filters a store's slices" in r.stderr
    r = driver("build", TWIC, "-o", tmp_path / "b.bin", "--no-such-flag")
    assert r.returncode == 2
    assert "--no-such-flag: not a flag of bookforge build" in r.stderr


def test_without_dask_the_command_says_which_interpreter_lacks_it(tmp_path):
    # -S: no site packages, so this interpreter has no Dask, as a pyenv python3 would not.
    r = run(["/usr/bin/python3", "-S", DRIVER, "build", TWIC, "-o", tmp_path / "b.bin"])
    assert r.returncode == 2
    assert "Dask distributed is not installed for /usr/bin/python3" in r.stderr
    assert "python3-distributed" in r.stderr
