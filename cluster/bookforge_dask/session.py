"""The cluster a job runs on: a LocalCluster of this machine by default, or an existing Dask
scheduler; the checks every worker passes before the job; the stages run as tasks with a
progress line.
"""

import logging
import math
import os
import shutil
import sys
import time
import uuid

import cloudpickle
import dask
from dask.distributed import Client, LocalCluster, as_completed

from bookforge_dask import tasks

# Workers need only Dask and bookforge: the task functions travel with the tasks.
cloudpickle.register_pickle_by_value(tasks)


class JobError(RuntimeError):
    """A job that cannot go on: the message says why, naming the task, file or worker."""


class Progress:
    """One line on stderr while a stage runs: tasks done of all, rate and time left."""

    def __init__(self, mode):
        self.tty = sys.stderr.isatty()
        self.on = mode == "always" or (mode == "auto" and self.tty)
        self.last = 0.0

    def update(self, stage, done, total, start, final=False):
        if not self.on:
            return
        now = time.monotonic()
        if not final and now - self.last < (0.2 if self.tty else 5.0):
            return
        self.last = now
        elapsed = now - start
        rate = done / elapsed if elapsed > 0 else 0.0
        eta = f", ETA {format_seconds((total - done) / rate)}" if rate > 0 and done < total else ""
        line = f"bookforge-dask: {stage} {done}/{total} tasks, {rate:.2f}/s{eta}"
        if self.tty:
            sys.stderr.write("\r" + line + "\x1b[K" + ("\n" if final else ""))
        else:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()


def format_seconds(s):
    s = int(math.ceil(s))
    return f"{s // 60}:{s % 60:02d}" if s >= 60 else f"{s} s"


class Session:
    def __init__(self, options):
        self.options = options
        self.token = uuid.uuid4().hex[:8]
        self.epoch = time.time()  # the job's start, for the times tasks started in the report
        self.stages = []  # (name, tasks, seconds) for the report
        self.progress = Progress(options.progress)
        self.cluster = None
        if options.scheduler:
            try:
                self.client = Client(options.scheduler, timeout=options.connect_timeout)
            except (OSError, TimeoutError) as e:
                raise JobError(f"cannot reach the scheduler at {options.scheduler}: {e}") from None
        else:
            # Threads by default: a task waits on its bookforge process and holds no lock for long,
            # and threads start and stop in a fraction of the time processes take (0.05 s against
            # 0.5 s here), which matters for a job of seconds. Processes can be killed one by one,
            # as a cluster's workers die.
            #
            # The driver shares this machine's cores with bookforge, so Dask's own watchers are
            # quietened: they watch for what cannot happen here, and woke the driver every few
            # milliseconds. The workers' statistical profiler samples threads that only wait on
            # bookforge; the memory monitor (off with no memory limit) measures workers that hold
            # no data, as a task's result is a few lines; the system monitor and the event loop's
            # tick feed a dashboard and warnings there is no use for. Together they took 0.26 to
            # 0.30 s of the driver's cpu over a build of 3 s on two busy cores; 0.11 to 0.15 s
            # without them.
            dask.config.set({
                "distributed.worker.profile.enabled": False,
                "distributed.admin.system-monitor.interval": "60s",
                "distributed.admin.tick.interval": "1s",
            })
            self.cluster = LocalCluster(
                n_workers=options.local,
                threads_per_worker=1,
                processes=options.local_processes,
                memory_limit=0,
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
            self.client = Client(self.cluster)
        if not self.client.scheduler_info()["workers"]:
            self.client.wait_for_workers(1, timeout=options.connect_timeout)
        workers = self.client.scheduler_info()["workers"]
        self.workers = len(workers)
        # A worker runs as many tasks at once as it has threads (`dask worker` gives a machine's
        # worker a thread per core): the job is planned for that many tasks at once, most of
        # them a bookforge process of one thread.
        self.threads = {address: w["nthreads"] for address, w in workers.items()}
        self.slots = sum(self.threads.values())
        # The threads of the smallest worker: a task of that many fits on any worker.
        self.machine_threads = min(self.threads.values())
        # Workers that all run on one machine (a LocalCluster, or one host's workers) share its
        # memory: bookforge's own threads need no counts files between them.
        self.one_machine = len({w["host"] for w in workers.values()}) == 1

    def place(self, threads):
        """The worker each task should run on, for tasks of `threads` threads each: a task of
        several (a bookforge process on that many cores) goes to the worker with the most threads
        still free, so that two of them do not share one worker's cores while another idles.
        None for a task of one thread, which the scheduler places."""
        free = dict(self.threads)
        out = []
        for t in threads:
            if t <= 1:
                out.append(None)
                continue
            address = max(sorted(free), key=lambda a: (free[a], free[a] - self.threads[a]))
            free[address] -= t
            out.append(address)
        return out

    def close(self):
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()

    def check_workers(self, work_dir):
        """Every worker runs the same bookforge and sees the work folder: a job whose parts came
        from different versions, or were written where the others cannot read them, is refused
        before it starts."""
        probe = f".probe-{self.token}"
        with open(os.path.join(work_dir, probe), "w") as f:
            f.write(self.token)
        try:
            seen = self.client.run(tasks.check_worker, self.options.bookforge, work_dir, probe)
        finally:
            os.unlink(os.path.join(work_dir, probe))
        versions = set()
        for address, s in sorted(seen.items()):
            where = f"worker {address} ({s['host']})"
            if not s["bookforge"] or not s["version"]:
                raise JobError(
                    f"{where} cannot run {self.options.bookforge}: put bookforge on its PATH or give --bookforge"
                )
            if not s["sees_work_dir"]:
                raise JobError(
                    f"{where} cannot see the work folder {work_dir}: --work-dir must be a folder every "
                    "worker shares (the same path on a shared filesystem)"
                )
            versions.add(s["version"])
        if len(versions) > 1:
            raise JobError("the workers run different bookforge versions: " + ", ".join(sorted(versions)))
        return versions.pop() if versions else None

    def run_stage(self, stage, calls, threads=None, priorities=None):
        """Runs `calls` (function, args...) as one task each; their results in the order given.
        `threads` gives each task's threads where some take more than one (placed by place());
        `priorities`, where given, which the scheduler starts first (the highest).
        A task that bookforge failed stops the stage (the others are cancelled) with its
        message; a worker that dies has its tasks run again by the scheduler, elsewhere if
        need be."""
        start = time.monotonic()
        where = self.place(threads) if threads else [None] * len(calls)
        # Sent in the order they should start, too: the first tasks to reach the scheduler start
        # at once on idle workers, before later ones of a higher priority arrive.
        order = sorted(range(len(calls)), key=lambda i: -priorities[i]) if priorities else range(len(calls))
        futures = [None] * len(calls)
        for i in order:
            fn, *args = calls[i]
            placed = {"workers": [where[i]], "allow_other_workers": True} if where[i] else {}
            futures[i] = self.client.submit(
                fn, *args, key=f"{stage}-{i}-{self.token}", pure=False, retries=self.options.retries,
                priority=priorities[i] if priorities else 0, **placed
            )
        index = {f.key: i for i, f in enumerate(futures)}
        results = [None] * len(futures)
        done = 0
        try:
            for future in as_completed(futures):
                i = index[future.key]
                try:
                    result = future.result()
                except Exception as e:  # raised on the worker and not cured by retries
                    raise JobError(f"{stage} task {i + 1} of {len(calls)} failed: {type(e).__name__}: {e}") from None
                if not result["ok"]:
                    raise JobError(result["error"])
                results[i] = result
                done += 1
                self.progress.update(stage, done, len(calls), start)
        except BaseException:
            self.client.cancel(futures)
            raise
        if threads:
            # Where each task ran, for the report: the worker holding its result.
            held = self.client.who_has(futures)
            for i, f in enumerate(futures):
                results[i]["worker"] = (list(held.get(f.key, ())) or [None])[0]
        self.progress.update(stage, done, len(calls), start, final=True)
        self.stages.append({"stage": stage, "tasks": len(calls), "seconds": round(time.monotonic() - start, 3)})
        return results


def remove_tree(path):
    shutil.rmtree(path, ignore_errors=True)
