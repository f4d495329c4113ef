"""What runs on the workers: one bookforge command per task.

Every task writes under a temporary name in the work folder and renames when bookforge has
finished, so a task run again (its worker died, or Dask retried it) never leaves half a file
under a final name. bookforge's own failures (a corrupt input, options that do not match) are
returned as results, not raised: they would fail the same way again, and the driver stops the
job with bookforge's message. Anything else is raised, for Dask to retry elsewhere.

This module is sent to the workers by value (cloudpickle), so that a worker needs only Python
with Dask and the bookforge binary, not this package: it imports nothing but the standard
library.
"""

import ctypes
import os
import shutil
import signal
import subprocess
import time
import uuid

_PR_SET_PDEATHSIG = 1


def _die_with_parent():
    # A worker killed mid-task (the scheduler then runs the task elsewhere) takes its bookforge
    # process with it, instead of leaving it to finish work nobody reads.
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except OSError:
        pass


def run(bookforge, args):
    """Runs bookforge with `args`: (exit code, stdout, stderr, seconds)."""
    start = time.monotonic()
    proc = subprocess.run(
        [bookforge] + [str(a) for a in args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        preexec_fn=_die_with_parent,
    )
    return proc.returncode, proc.stdout, proc.stderr, time.monotonic() - start


def _failed(what, rc, err):
    message = err.strip() or f"exit code {rc}"
    return {"ok": False, "error": f"{what}: {message}"}


def _temporary(path):
    return f"{path}.tmp-{uuid.uuid4().hex[:12]}"


def _put_folder_in_place(temp, final):
    """Renames a finished folder to its final name. A run of the same task that finished first
    made the same folder (bookforge is deterministic): that one is kept."""
    try:
        os.rename(temp, final)
    except OSError:
        if not os.path.isdir(final):
            raise
        shutil.rmtree(temp, ignore_errors=True)


def check_worker(bookforge, work_dir, probe):
    """What the driver checks on every worker before the job: bookforge's version, and that
    the work folder (with the probe file the driver wrote there) is the driver's."""
    found = shutil.which(bookforge) or (bookforge if os.access(bookforge, os.X_OK) else None)
    version = None
    if found:
        rc, out, err, _ = run(found, ["--version"])
        version = out.strip() if rc == 0 else None
    return {
        "host": os.uname().nodename,
        "bookforge": found,
        "version": version,
        "sees_work_dir": os.path.isfile(os.path.join(work_dir, probe)),
    }


def count_shard(bookforge, inputs, part, threads, set_dir, flags, shard):
    """`bookforge count` of one shard (`shard` names it in an error) on `threads` threads into
    the set folder `set_dir`."""
    started = time.time()
    temp = _temporary(set_dir)
    args = ["count"] + list(inputs) + ["-o", temp, "--threads", str(threads), "--progress", "never"]
    if part:
        args += ["--part", part]
    rc, out, err, seconds = run(bookforge, args + list(flags))
    if rc != 0:
        shutil.rmtree(temp, ignore_errors=True)
        return _failed(f"{shard}: bookforge count", rc, err)
    _put_folder_in_place(temp, set_dir)
    return {"ok": True, "set": set_dir, "summary": out.strip(), "seconds": seconds, "started": started}


def find_duplicates(bookforge, sets, out_dir):
    """`bookforge count --find-duplicates`: the skip list of every set holding a game an earlier
    set holds, as {set index: list file}."""
    temp = _temporary(out_dir)
    rc, out, err, seconds = run(bookforge, ["count", "--find-duplicates"] + list(sets) + ["-o", temp])
    if rc != 0:
        shutil.rmtree(temp, ignore_errors=True)
        return _failed("bookforge count --find-duplicates", rc, err)
    _put_folder_in_place(temp, out_dir)
    lists = {}
    for name in sorted(os.listdir(out_dir)):
        if name.startswith("skip-") and name.endswith(".fingerprints"):
            lists[int(name[len("skip-") : -len(".fingerprints")])] = os.path.join(out_dir, name)
    return {"ok": True, "skip": lists, "seconds": seconds}


def command(bookforge, args, what):
    """Any bookforge command whose outputs bookforge itself writes under temporary names (build,
    count --merge, rescore, exits, db add): its stdout and stderr."""
    rc, out, err, seconds = run(bookforge, args)
    if rc != 0:
        return _failed(what, rc, err)
    return {"ok": True, "out": out, "err": err, "seconds": seconds}
