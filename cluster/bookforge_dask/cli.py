"""bookforge-dask: bookforge's build, db add and exits on a Dask cluster.

  bookforge-dask build INPUTS -o book.bin [build flags] [cluster options]
  bookforge-dask db-add --db DB INPUTS [counting flags] [--game-plies N] [--force] [cluster options]
  bookforge-dask exits BOOK.bin|INPUTS -o exits.epd [--depth D|--nodes N] [--eval-min CP]
                       [--eval-max CP] [--engine PATH] [build flags, with PGN inputs] [cluster options]

Cluster options: --scheduler tcp://HOST:8786 (default: a LocalCluster of --local N workers on
this machine), --work-dir DIR (shared by every worker), --bookforge PATH, --parts N,
--partitions K, --batches N, --retries N, --report FILE, --progress, --keep-work.
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
import time

from bookforge_dask import __version__, flags as build_flags
from bookforge_dask.jobs import Job, default_partitions
from bookforge_dask.session import JobError, Session

# The driver's own options: name -> number of values (aliases map to the same option).
DRIVER_OPTIONS = {
    "-o": 1,
    "--output": 1,
    "--scheduler": 1,
    "--local": 1,
    "--local-processes": 0,
    "--work-dir": 1,
    "--keep-work": 0,
    "--bookforge": 1,
    "--parts": 1,
    "--partitions": 1,
    "--batches": 1,
    "--retries": 1,
    "--report": 1,
    "--progress": 1,
    "--connect-timeout": 1,
    "--from-counts": 0,
    "--reduce": 1,
    "-q": 0,
    "--quiet": 0,
    "-h": 0,
    "--help": 0,
    "--version": 0,
}

# `exits`'s own search flags, as `bookforge exits` takes them.
EXITS_OPTIONS = {"--depth": 1, "--nodes": 1, "--eval-min": 1, "--eval-max": 1, "--hash": 1, "--engine": 1}

# `db-add`'s flags for `bookforge db add` itself (the rest are counting flags).
DB_ADD_OPTIONS = {"--db": 1, "--force": 0, "--game-plies": 1}


# What each command takes beyond the cluster options above.
COMMAND_HELP = {
    "build": "\nINPUTS are PGN files (or, with --from-counts, sets made by bookforge count). Every flag of\n"
             "`bookforge build` is taken and goes to the step it shapes: game filters, --max-ply, --rules,\n"
             "--weight to the counting; the rules to the rules; --rescore-* to the rescoring's batches;\n"
             "--exits and --exit-* to the exits' batches.",
    "db-add": "\n--db DB is the store (created if missing). INPUTS are PGN files; the game filters, --max-ply,\n"
              "--count-repeats and --keep-duplicates shape the counting; --game-plies and --force are db add's.",
    "exits": "\nBOOK.bin is a Polyglot book; or PGN INPUTS with any `bookforge build` flag, built first.\n"
             "--depth D or --nodes N, --eval-min CP, --eval-max CP, --hash MB and --engine PATH (a UCI engine\n"
             "such as Stockfish, on every worker) are `bookforge exits`'s.",
}


class UsageError(ValueError):
    pass


def driver_parser(command):
    p = argparse.ArgumentParser(prog=f"bookforge-dask {command}", add_help=False)
    p.add_argument("-o", "--output")
    p.add_argument("--scheduler", help="address of a running Dask scheduler, e.g. tcp://10.0.0.1:8786")
    p.add_argument("--local", type=int, default=os.cpu_count() or 1, help="workers of a LocalCluster [cores]")
    p.add_argument("--local-processes", action="store_true",
                   help="LocalCluster workers as processes (as a cluster's are) rather than threads of this one")
    p.add_argument("--work-dir", help="folder for the counts and parts, shared by every worker")
    p.add_argument("--keep-work", action="store_true", help="keep the work folder after the job")
    p.add_argument("--bookforge", default="bookforge", help="the bookforge binary on the workers [on PATH]")
    p.add_argument("--parts", type=int, default=0,
                   help="shards per input (--part i/N) [on one machine, one task; else whole inputs, grouped "
                        "or cut to the worker threads' shares, a compressed one only as far as its reader "
                        "keeps them busy]")
    p.add_argument("--partitions", type=int, default=0, help="key ranges: reduce tasks [2 x worker threads]")
    p.add_argument("--batches", type=int, default=0, help="batches of searches [4 x worker threads]")
    p.add_argument("--retries", type=int, default=1, help="times a task that raised runs again [1]")
    p.add_argument("--report", help="write a JSON report of the job")
    p.add_argument("--progress", choices=["auto", "always", "never"], default="auto")
    p.add_argument("--connect-timeout", type=float, default=30.0)
    p.add_argument("--from-counts", action="store_true", help="the inputs are sets of counts (bookforge count)")
    p.add_argument("--reduce", choices=["auto", "ranges", "direct"], default="auto",
                   help="merge the sets a task per key range, or let the rules read them directly [auto: one "
                        "shard, or workers of one machine, build in one task; more shards are counted; "
                        "ranges above 8 sets]")
    p.add_argument("-q", "--quiet", action="store_true")
    return p


def split_tokens(tokens, extra_options):
    """Splits a command line into inputs, the driver's tokens, its command's own tokens and
    bookforge build flags, each flag with as many values as it takes."""
    inputs, driver, own, build = [], [], [], []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        name = token.split("=", 1)[0] if token.startswith("--") else token
        if not token.startswith("-") or token == "-":
            inputs.append(token)
            i += 1
            continue
        for table, out in ((DRIVER_OPTIONS, driver), (extra_options, own)):
            if name in table:
                arity = 0 if "=" in token else table[name]
                out += tokens[i : i + 1 + arity]
                if len(tokens) < i + 1 + arity:
                    raise UsageError(f"{name} needs a value")
                i += 1 + arity
                break
        else:
            arity = build_flags.ALL.get(name, 0)
            j = i + 1
            if "=" not in token:
                if arity == build_flags.MANY:
                    while j < len(tokens) and not tokens[j].startswith("--"):
                        j += 1
                else:
                    j += arity
            build += tokens[i:j]
            i = j
    return inputs, driver, own, build


def check_inputs(inputs, sets=False):
    if not inputs:
        raise UsageError("no input given")
    out = []
    for path in inputs:
        if path == "-":
            raise UsageError("standard input cannot be spread over workers: give files")
        if sets and not os.path.isdir(path):
            raise UsageError(f"{path}: no such folder of counts")
        if not sets and not os.path.isfile(path):
            raise UsageError(f"{path}: no such file")
        if not os.access(path, os.R_OK):
            raise UsageError(f"{path}: cannot be read")
        out.append(os.path.abspath(path))
    return out


def check_output(path, inputs):
    if not path:
        raise UsageError("-o/--output is needed")
    folder = os.path.dirname(os.path.abspath(path)) or "."
    if not os.path.isdir(folder):
        raise UsageError(f"{path}: the folder {folder} does not exist")
    if os.path.abspath(path) in inputs:
        raise UsageError(f"{path} is one of the inputs")
    return os.path.abspath(path)


def make_work_dir(options, near):
    if options.work_dir:
        os.makedirs(options.work_dir, exist_ok=True)
        return tempfile.mkdtemp(prefix="bookforge-dask-", dir=os.path.abspath(options.work_dir))
    return tempfile.mkdtemp(prefix=".bookforge-dask-", dir=os.path.dirname(near))


def usage():
    return __doc__.strip() + "\n\nbookforge-dask COMMAND --help lists a command's options."


def exit_at_once(code):
    """Ends the process once main() has returned `code`. By then every file is written and
    closed, the cluster is closed and the work folder removed; the interpreter's own exit would
    wait 0.2 s more for Dask's threads and finalizers to wind down, a fifth of a short job's
    fixed cost."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(usage())
        return 0 if argv else 2
    if argv[0] == "--version":
        print(f"bookforge-dask {__version__}")
        return 0
    command, rest = argv[0], argv[1:]
    if command not in ("build", "db-add", "exits"):
        print(f"bookforge-dask: error: unknown command {command!r}\n\n{usage()}", file=sys.stderr)
        return 2
    start = time.monotonic()
    extra = {"exits": EXITS_OPTIONS, "db-add": DB_ADD_OPTIONS}.get(command, {})
    try:
        inputs, driver, own, build = split_tokens(rest, extra)
        if "-h" in driver or "--help" in driver:
            driver_parser(command).print_help()
            print(COMMAND_HELP[command])
            return 0
        options = driver_parser(command).parse_args(driver)
        shown = options.output  # as the user gave it, for the summary
        if options.local < 1:
            raise UsageError("--local needs at least one worker")
        sorted_flags = build_flags.sort_flags(build)
        if command == "db-add":
            if sorted_flags.rules or sorted_flags.rescoring or sorted_flags.exits:
                raise UsageError("db-add takes counting flags only (the rules are the reader's: db explore, build --from-db)")
            if "--db" not in own:
                raise UsageError("db-add needs --db DB, the store to add to")
            at = own.index("--db")
            db = os.path.abspath(own[at + 1])
            own = own[:at] + own[at + 2 :]
            inputs = check_inputs(inputs)
            if not os.path.isdir(os.path.dirname(db)):
                raise UsageError(f"{db}: the folder {os.path.dirname(db)} does not exist")
            near = db
        elif command == "exits" and len(inputs) == 1 and inputs[0].endswith(".bin"):
            inputs = check_inputs(inputs)
            if build:
                raise UsageError("build flags shape the book: give PGN inputs with them, or only the book")
            near = options.output = check_output(options.output, inputs)
        else:
            if options.from_counts and command != "build":
                raise UsageError("--from-counts is for build")
            inputs = check_inputs(inputs, sets=options.from_counts)
            near = options.output = check_output(options.output, inputs)
            if command == "build" and sorted_flags.exits:
                sorted_flags.exits["--exits"] = check_output(sorted_flags.exits["--exits"], inputs)
            if sorted_flags.suspicious_path():
                check_output(sorted_flags.suspicious_path(), inputs)
    except (UsageError, build_flags.FlagError, SystemExit) as e:
        if isinstance(e, SystemExit):
            return 2
        print(f"bookforge-dask {command}: error: {e}", file=sys.stderr)
        return 2

    work = None
    session = None
    try:
        work = make_work_dir(options, near)
        session = Session(options)
        options.partitions = options.partitions or default_partitions(session.slots)
        version = session.check_workers(work)
        job = Job(session, options, work)
        job.report.update({"command": command, "bookforge": version, "inputs": inputs})
        if command == "build":
            if options.from_counts:
                job.build_from_counts(inputs, sorted_flags, options.output)
            else:
                job.build(job.plan(inputs), sorted_flags, options.output)
            b = job.report["build"]
            done = f"{shown}: {b['entries']} entries, {b['positions']} positions from {job.report['games']} games"
        elif command == "db-add":
            job.db_add(job.plan(inputs), sorted_flags.counting, db, own)
            done = job.report["db_add_summary"]
        else:
            book = inputs[0]
            if not book.endswith(".bin"):
                book = job.path("book.bin.out")
                job.build(job.plan(inputs), sorted_flags, book)
            job.exits(book, own, options.output)
            done = f"{shown}: {job.report['exits']['positions']} exit positions"
        seconds = time.monotonic() - start
        job.report.update({"stages": session.stages, "seconds": round(seconds, 3)})
        if "counts_bytes" in job.report and job.report.get("games"):
            job.report["counts_bytes_per_game"] = round(job.report["counts_bytes"] / job.report["games"], 1)
        if options.report:
            with open(options.report + ".tmp", "w") as f:
                json.dump(job.report, f, indent=2)
            os.replace(options.report + ".tmp", options.report)
        if not options.quiet:
            print(f"{done}, on {session.workers} worker(s) in {seconds:.2f} s")
            # What each stage took: where a cluster's time goes.
            for s in session.stages:
                print(f"  {s['stage']}: {s['tasks']} task(s) in {s['seconds']:.2f} s")
        return 0
    except JobError as e:
        print(f"bookforge-dask {command}: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"bookforge-dask {command}: interrupted", file=sys.stderr)
        return 130
    finally:
        if session is not None:
            session.close()
        if work is not None and not options.keep_work:
            shutil.rmtree(work, ignore_errors=True)
