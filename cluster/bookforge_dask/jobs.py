"""The jobs: a book, a store, an exit suite, each as bookforge's map and reduce steps on the
cluster (docs/scale.md).

  build    count every shard (map) -> skip games two shards hold -> merge each key range
           (reduce) -> the rules (build --from-counts), with the rescoring's searches spread in
           batches -> the book; --exits adds the exit positions' searches in batches. A job of
           one shard, or on workers of one machine, is one task, bookforge build with the
           machine's threads: there is nothing to shuffle
  db-add   count every shard for a store -> skip shared games -> db add --from-counts
  exits    the exit positions of a book (or of the book of PGN inputs), searched in batches

Shards are whole inputs, runs of small ones, or parts of big ones (count --part i/N). Every
result is the one-machine result byte for byte: the counts add up exactly whatever the split,
and every search starts from a cleared engine, so it does not matter which worker made what.
"""

import glob
import json
import os
import shutil
import time
from dataclasses import dataclass

from bookforge_dask import tasks
from bookforge_dask.flags import exits_command_flags
from bookforge_dask.session import JobError

# Up to this many sets, the rules read the shards' sets directly (--reduce auto).
DIRECT_SETS = 8


@dataclass
class Shard:
    inputs: list
    part: str  # "i/N" of each input, or "" for whole inputs
    threads: int = 1  # bookforge's --threads for the shard's task
    bytes: int = 0  # of its inputs as they lie on disk (a part's share): the biggest start first

    def describe(self):
        names = " + ".join(self.inputs)
        return f"{names} part {self.part}" if self.part else names


# A group of whole inputs stops growing at this many bytes (as they lie on disk): a task that
# long (seconds of counting) no longer feels a process's start, and beyond it many tasks balance
# the workers better than few big ones.
GROUP_BYTES = 256 << 20


# A compressed stream is read from its start: `count --part i/N` of it decompresses the whole
# stream to learn its size and hash, then every byte up to its range's end, so the parts of a
# compressed input cost more the more there are (n parts decompress it about 1.5 n times over),
# and no split reads it faster than one reader decompresses the whole. How many counting threads
# one reader keeps busy: the count's cpu against the decompression's on pgnmentor part 1 (92 MB:
# count of the plain PGN on one thread 1.8 s, then zstd -dc 0.42 s, gzip -dc 0.58 s, xz -dc
# 1.9 s, bzip2 -dc 7.2 s, 2026-11-28).
READER_FEEDS = {"zst": 4, "gz": 3, "xz": 1, "bz2": 1}
MAGIC = ((b"\x28\xb5\x2f\xfd", "zst"), (b"\x1f\x8b", "gz"), (b"\xfd7zXZ\x00", "xz"), (b"BZh", "bz2"))


def compression(path):
    """An input's compression, from its first bytes as bookforge tells it (the same magic bytes
    as detect_compression in pgn/source.cpp): "zst", "gz", "xz", "bz2", or "" for plain PGN."""
    try:
        with open(path, "rb") as f:
            head = f.read(6)
    except OSError:
        return ""
    if len(head) >= 4 and head[0] & 0xF0 == 0x50 and head[1:4] == b"\x2a\x4d\x18":
        return "zst"  # a skippable frame first, as pzstd writes
    return next((name for magic, name in MAGIC if head.startswith(magic)), "")


def plan_shards(inputs, parts, slots, machine_threads=1, size=os.path.getsize, compressed=compression,
                group_bytes=GROUP_BYTES):
    """The map's tasks. With `parts` (--parts N), every input in N parts. Otherwise fewer inputs
    than `slots` (the tasks the workers run at once: their threads) share the slots out: a
    plain input is cut into a part a slot (a part finds its range at little cost), and a
    compressed one into as few parts as keep its readers' counting threads busy, each part a
    task of several threads on one worker (`machine_threads`, the smallest worker's): a
    lichess month (one .zst) on workers of 16 threads is one task of 4 threads, where 16 parts
    of a thread each would decompress the month 24 times over and finish no sooner.
    Consecutive whole inputs are grouped while a group stays within a slot's share of the bytes
    and within `group_bytes`: one pass over a group costs less than a pass per input (a
    process, a set of K files for the rules to read), and games two inputs of one group share
    are dropped as they are met, where two sets would have to be counted again. Inputs of that
    size or more stay one shard each, and the scheduler balances them over the workers."""
    if parts:
        shards = []
        for path in inputs:
            share = size(path) // parts
            shards += [Shard([path], f"{i}/{parts}" if parts > 1 else "", 1, share) for i in range(parts)]
        return shards
    if len(inputs) < slots:
        share = -(-slots // len(inputs))
        shards = []
        for path in inputs:
            kind = compressed(path)
            if kind:
                busy = min(share, READER_FEEDS[kind])
                n = -(-busy // machine_threads)
                threads = min(machine_threads, -(-busy // n))
            else:
                n, threads = share, 1
            part_bytes = size(path) // n
            shards += [Shard([path], f"{i}/{n}" if n > 1 else "", threads, part_bytes) for i in range(n)]
        return shards
    sizes = [size(path) for path in inputs]
    most = min(sum(sizes) / slots, group_bytes)
    shards = []
    group, grouped = [], 0
    for path, n in zip(inputs, sizes):
        if group and grouped + n > most:
            shards.append(Shard(group, "", 1, grouped))
            group, grouped = [], 0
        group.append(path)
        grouped += n
    shards.append(Shard(group, "", 1, grouped))
    return shards


def default_partitions(slots):
    k = 1
    while k < 2 * slots and k < 4096:
        k *= 2
    return k


def read_counts_header(set_dir):
    """The text header of a set's first counts file (counts/counts_file.h: magic, version,
    header length, then "name value" lines): what the set was counted with."""
    name = sorted(n for n in os.listdir(set_dir) if n.endswith(".counts"))[0]
    with open(os.path.join(set_dir, name), "rb") as f:
        prefix = f.read(16)
        length = int.from_bytes(prefix[12:16], "little")
        text = f.read(length).decode("utf-8", "replace")
    header = {}
    for line in text.splitlines():
        key, _, value = line.partition(" ")
        header.setdefault(key, value)
    return header


def read_counts_header_or_fail(set_dir):
    try:
        return read_counts_header(set_dir)
    except (OSError, IndexError, ValueError):
        raise JobError(f"{set_dir}: not a set of counts (no readable range-*.counts file)") from None


class Job:
    def __init__(self, session, options, work_dir):
        self.session = session
        self.options = options
        self.bookforge = options.bookforge
        self.work = work_dir
        self.report = {"workers": session.workers, "work_dir": work_dir}

    def path(self, *names):
        return os.path.join(self.work, *names)

    def count_shards(self, shards, counting_flags, counts_for):
        """The map: a set of counts per shard, in shard order; then the games two shards hold are
        skipped in the later one, as one machine counts a game once."""
        os.makedirs(self.path("sets"), exist_ok=True)
        k = str(self.options.partitions)
        flags = list(counting_flags) + ["--partitions", k, "--for", counts_for]
        sets = [self.path("sets", f"shard-{i:05d}") for i in range(len(shards))]
        calls = [
            (tasks.count_shard, self.bookforge, s.inputs, s.part, s.threads, sets[i], flags, self.shard_name(i, shards))
            for i, s in enumerate(shards)
        ]
        # The biggest shards first (the scheduler runs higher priorities first): lichess's months
        # grow from kilobytes to 30 GB, and in the order of their names the biggest would start
        # last and end the map alone; first, they end beside the small ones.
        results = self.session.run_stage("count", calls, [s.threads for s in shards], [s.bytes for s in shards])
        self.report["shards"] = [
            {"inputs": s.inputs, "part": s.part or "whole", "threads": s.threads, "worker": r["worker"],
             "started": round(r["started"] - self.session.epoch, 3), "summary": r["summary"],
             "seconds": round(r["seconds"], 3)}
            for s, r in zip(shards, results)
        ]
        header = read_counts_header(sets[0])
        if len(sets) > 1 and header.get("duplicates") == "dropped":
            sets = self.skip_shared_games(shards, sets, flags)
        return sets

    @staticmethod
    def shard_name(i, shards):
        return f"shard {i + 1} of {len(shards)} ({shards[i].describe()})"

    def skip_shared_games(self, shards, sets, flags):
        found = self.session.run_stage(
            "duplicates", [(tasks.find_duplicates, self.bookforge, sets, self.path("duplicates"))]
        )[0]
        skip = found["skip"]
        self.report["shards_recounted"] = len(skip)
        if not skip:
            return sets
        recounted = {i: sets[i] + "-skip" for i in skip}
        order = sorted(skip)
        calls = [
            (
                tasks.count_shard,
                self.bookforge,
                shards[i].inputs,
                shards[i].part,
                shards[i].threads,
                recounted[i],
                flags + ["--skip-games", skip[i]],
                self.shard_name(i, shards),
            )
            for i in order
        ]
        self.session.run_stage("recount", calls, [shards[i].threads for i in order], [shards[i].bytes for i in order])
        return [recounted.get(i, s) for i, s in enumerate(sets)]

    def merge(self, sets):
        """The reduce: every key range of the sets' sum is its own task, then the game list. A
        few sets go to the rules as they are: its build merges them range by range on every core
        of its machine, and a reduce would only write and read the counts once more."""
        reduce = self.options.reduce
        if len(sets) == 1 or (reduce == "auto" and len(sets) <= DIRECT_SETS) or reduce == "direct":
            return sets
        merged = self.path("merged")
        k = self.key_ranges(sets)
        merge = ["count", "--merge"] + sets + ["-o", merged, "--partitions", str(k)]
        self.session.run_stage(
            "merge",
            [(tasks.command, self.bookforge, merge + ["--range", str(r)], f"bookforge count --merge --range {r}")
             for r in range(k)],
        )
        self.run_one("game-list", merge + ["--game-list"], "bookforge count --merge --game-list")
        return [merged]

    def key_ranges(self, sets):
        """The K of a reduce or of the rules by range: no finer than the coarsest set's, so that a
        range is cut from whole files of each set."""
        return min(self.options.partitions, min(int(read_counts_header(s)["partitions"]) for s in sets))

    def counts_bytes(self, sets):
        total = 0
        for s in sets:
            total += sum(os.path.getsize(p) for p in glob.glob(os.path.join(s, "*.counts")))
        return total

    def batches(self):
        return self.options.batches or 4 * self.session.slots

    def run_one(self, stage, args, what):
        return self.session.run_stage(stage, [(tasks.command, self.bookforge, args, what)])[0]

    # --- build ---

    def plan(self, inputs):
        """The shards of a job's inputs. On workers that share one machine, all inputs are one
        shard, built in one task on that machine's threads (one_task), unless --parts or
        --reduce asks for the counted path: bookforge's threads share the machine's memory,
        where shards would write their counts to files only to read them back, and count the
        games two shards share twice. On the three pgnmentor files with two workers, the job
        took 1.10x to 1.22x one process's time in one task, 2.29x counted (docs/scale.md)."""
        if self.session.one_machine and not self.options.parts and self.options.reduce == "auto":
            return [Shard(list(inputs), "", self.session.slots)]
        return plan_shards(inputs, self.options.parts, self.session.slots, self.session.machine_threads)

    def one_task(self, shards):
        """The shard of a job that is one task (nothing to shuffle): a single whole-input shard,
        unless --reduce asks for the count and the rules apart. None otherwise."""
        if len(shards) == 1 and not shards[0].part and self.options.reduce == "auto":
            return shards[0]
        return None

    def run_one_task(self, stage, shard, args, what):
        """The one task of a job, `bookforge build` or `db add` of its shard, on the shard's
        threads: every worker thread of the one machine the workers share (no other task runs
        beside it), or a worker's on a cluster of several; its report kept."""
        args = list(args) + ["--threads", str(shard.threads), "--progress", "never"]
        result = self.session.run_stage(stage, [(tasks.command, self.bookforge, args, what)], [shard.threads])[0]
        self.report["shards"] = [{"inputs": shard.inputs, "part": "whole", "threads": shard.threads,
                                  "worker": result["worker"], "summary": result["out"].strip(),
                                  "seconds": round(result["seconds"], 3)}]
        return result

    def in_work_folder(self, flags, tokens):
        """`tokens` with --suspicious naming the work folder's list, which book_built puts in
        place once the book is."""
        tokens = list(tokens)
        if flags.suspicious_path():
            tokens[tokens.index("--suspicious") + 1] = self.path("suspicious.csv")
        return tokens

    def build(self, shards, flags, output):
        shard = self.one_task(shards)
        if shard:
            return self.build_in_one_task(shard, flags, output)
        sets = self.count_shards(shards, flags.counting, "book")
        return self.rules(sets, flags, output)

    def build_in_one_task(self, shard, flags, output):
        """One shard, or workers of one machine: nothing to shuffle, so the map and the reduce are
        one task, a `bookforge build` of the shard on the worker's machine, the book of one
        machine by definition. Writing its counts only to read them back cost 1.3 s of a 4 s
        build of the three pgnmentor files. --reduce direct or ranges keeps the two steps."""
        book = self.path("book.bin")
        build_report = self.path("build-report.json")
        args = ["build"] + list(shard.inputs) + ["-o", book, "--report", build_report]
        args += self.in_work_folder(flags, flags.build)
        result = self.run_one_task("build", shard, args, f"{self.shard_name(0, [shard])}: bookforge build")
        self.book_built(result, build_report, flags, output)
        self.report["games"] = self.report["build"]["tally"]["games"]
        return result

    def book_built(self, result, build_report, flags, output):
        """After the task that wrote the book (and the suspicious moves' list) in the work folder:
        its report kept, the files put in place, then the exits' searches if asked for."""
        self.report["build_summary"] = result["out"].strip()
        with open(build_report) as f:
            self.report["build"] = json.load(f)
        put_in_place(self.path("book.bin"), output)
        suspicious = flags.suspicious_path()
        if suspicious:
            put_in_place(self.path("suspicious.csv"), suspicious)
        if flags.exits:
            self.exits(output, exits_command_flags(flags.exits), flags.exits["--exits"])

    def build_from_counts(self, sets, flags, output):
        """A book from sets counted earlier (bookforge count, anywhere): the merge and the rules
        on the cluster."""
        if flags.counting and any(t not in flags.rules for t in flags.counting):
            raise JobError("the game filters were applied when the sets were counted: leave them out")
        for s in sets:
            read_counts_header_or_fail(s)
        return self.rules(sets, flags, output)

    def spread_rules(self, sets, flags):
        """Whether the rules run a task per key range (each reads its range of every set, so the
        reduce and the rules are one step): when no rule needs the whole book, and for as many
        sets as a reduce would be used for."""
        whole_book = flags.rescores() or flags.exits or "--prune-unreachable" in flags.rules
        reduce = self.options.reduce
        return not whole_book and (reduce == "ranges" or (reduce == "auto" and len(sets) > DIRECT_SETS))

    def rules_by_range(self, sets, flags, output):
        """The book a key range a task, the parts concatenated in range order: a Polyglot book is
        sorted by key, so they are the whole book byte for byte (build --key-range)."""
        k = self.key_ranges(sets)
        parts = [self.path(f"book-{r:05d}.bin") for r in range(k)]
        reports = [self.path(f"book-{r:05d}.json") for r in range(k)]
        calls = [
            (tasks.command, self.bookforge,
             ["build", "-o", parts[r], "--progress", "never", "--allow-empty", "--key-range", f"{r}/{k}",
              "--report", reports[r]] + flags.rules + ["--from-counts"] + sets,
             f"bookforge build --key-range {r}/{k}")
            for r in range(k)
        ]
        self.session.run_stage("rules", calls)
        part_reports = []
        for path in reports:
            with open(path) as f:
                part_reports.append(json.load(f))
        entries = sum(p["entries"] for p in part_reports)
        self.report["build"] = {"entries": entries, "positions": sum(p["positions"] for p in part_reports),
                                "key_ranges": part_reports}
        if entries == 0 and "--allow-empty" not in flags.rules:
            raise JobError(f"{output}: empty book not written: the selection rules kept no move of the "
                           f"{self.report['games']} game(s) kept (--allow-empty writes it anyway)")
        book = self.path("book.bin")
        with open(book, "wb") as out:
            for p in parts:
                with open(p, "rb") as f:
                    shutil.copyfileobj(f, out)
        put_in_place(book, output)

    def rules(self, sets, flags, output):
        self.report["games"] = sum(int(read_counts_header(s).get("games_kept", 0)) for s in sets)
        self.report["counts_bytes"] = self.counts_bytes(sets)
        if self.spread_rules(sets, flags):
            return self.rules_by_range(sets, flags, output)
        merged = self.merge(sets)
        book = self.path("book.bin")
        build_report = self.path("build-report.json")
        args = ["build", "-o", book, "--progress", "never", "--from-counts"] + merged
        args += flags.rules + ["--report", build_report]
        if flags.rescores():
            args += self.in_work_folder(flags, flags.rescoring) + self.rescore_in_batches(merged, flags)
        result = self.run_one("rules", args, "bookforge build --from-counts")
        self.book_built(result, build_report, flags, output)
        return result

    def rescore_in_batches(self, merged, flags):
        """The rescoring's searches spread over the workers: the plan of the positions to search
        (the rules run once more, without searching), the plan's batches searched on the workers,
        then the final build takes their verdicts instead of searching."""
        plan = self.path("rescore-plan.txt")
        searching = [t for t in flags.rescoring]
        if "--suspicious" in searching:
            i = searching.index("--suspicious")
            del searching[i : i + 2]
        self.run_one(
            "rescore-plan",
            ["build", "--progress", "never"] + flags.rules + searching + ["--rescore-plan", plan, "--from-counts"]
            + merged,
            "bookforge build --rescore-plan",
        )
        n = self.batches()
        verdicts = [self.path(f"verdicts-{i:05d}.txt") for i in range(n)]
        self.session.run_stage(
            "rescore",
            [
                (tasks.command, self.bookforge,
                 ["rescore", plan, "--batch", f"{i}/{n}", "-o", verdicts[i], "--threads", "1", "--progress", "never"],
                 f"bookforge rescore batch {i}/{n}")
                for i in range(n)
            ],
        )
        return ["--rescore-verdicts"] + verdicts

    # --- exits ---

    def exits(self, book, exit_flags, output):
        n = self.batches()
        parts = [self.path(f"exits-{i:05d}.epd") for i in range(n)]
        self.session.run_stage(
            "exits",
            [
                (tasks.command, self.bookforge,
                 ["exits", book, "-o", parts[i], "--batch", f"{i}/{n}", "--threads", "1"] + exit_flags,
                 f"bookforge exits batch {i}/{n}")
                for i in range(n)
            ],
        )
        joined = self.path("exits.epd")
        lines = 0
        with open(joined, "wb") as out:
            for p in parts:
                with open(p, "rb") as f:
                    data = f.read()
                    lines += data.count(b"\n")
                    out.write(data)
        self.report["exits"] = {"path": output, "positions": lines}
        put_in_place(joined, output)

    # --- db add ---

    def db_add(self, shards, counting_flags, db, db_flags):
        shard = self.one_task(shards)
        if shard:
            # `db add` of its files, as for a book (build_in_one_task).
            result = self.run_one_task(
                "db-add", shard, ["db", "add", "--db", db] + list(shard.inputs) + list(counting_flags) + list(db_flags),
                f"{self.shard_name(0, shards)}: bookforge db add",
            )
            self.report["db_add_summary"] = result["out"].strip()
            return result
        # The positions that keep their top and recent games are chosen when counting.
        plies = [t for i, t in enumerate(db_flags) if t == "--game-plies" or (i and db_flags[i - 1] == "--game-plies")]
        sets = self.count_shards(shards, list(counting_flags) + plies, "store")
        self.report["counts_bytes"] = self.counts_bytes(sets)
        result = self.run_one(
            "db-add", ["db", "add", "--db", db, "--from-counts"] + sets + list(db_flags) + ["--progress", "never"],
            "bookforge db add --from-counts",
        )
        self.report["db_add_summary"] = result["out"].strip()
        return result


def put_in_place(source, target):
    """Moves a finished file to where the user asked: renamed when on the same filesystem, else
    copied under a temporary name beside the target first, so the target is whole or absent."""
    try:
        os.replace(source, target)
        return
    except OSError:
        pass
    temp = f"{target}.tmp-{os.getpid()}-{int(time.time() * 1000)}"
    try:
        shutil.copyfile(source, temp)
        os.replace(temp, target)
    finally:
        if os.path.exists(temp):
            os.unlink(temp)
