#!/usr/bin/env python3
"""Side-by-side timing of several command lines, alternating, for A/B comparisons of builds.

This VM's speed drifts by 10-40% over minutes, so two binaries timed one after the other in
separate runs cannot be compared. Here every round runs each command once, in turn (the order
reversed every other round), and the medians over all rounds are printed: wall time, its
minimum, and user + system CPU time.

  bench/alternate.py ROUNDS CMD1 ... ;; CMD2 ... [;; CMD3 ...]

  bench/alternate.py 16 /tmp/old/bookforge build part1.pgn -o /tmp/a.bin --quiet \\;\\; \\
                        build/bin/bookforge build part1.pgn -o /tmp/b.bin --quiet

(`;;` separates the command lines; quote or escape it for the shell.) Output is discarded.
"""
import resource
import statistics
import subprocess
import sys
import time


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    rounds = int(sys.argv[1])
    commands = [c.split() for c in " ".join(sys.argv[2:]).split(" ;; ")]
    results = [[] for _ in commands]
    for r in range(rounds):
        order = range(len(commands)) if r % 2 == 0 else reversed(range(len(commands)))
        for i in order:
            start = time.perf_counter()
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(commands[i], check=True, stdout=subprocess.DEVNULL)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            results[i].append((wall, cpu))
    for i, command in enumerate(commands):
        walls = [w for w, _ in results[i]]
        cpus = [c for _, c in results[i]]
        print(f"{i + 1}: median wall {statistics.median(walls) * 1000:7.1f} ms"
              f"  min {min(walls) * 1000:7.1f} ms  median cpu {statistics.median(cpus) * 1000:7.1f} ms"
              f"  ({' '.join(command)[:60]})")
    # Each command against the first, as ratios of the medians (above 1: slower than the first).
    base_wall = statistics.median(w for w, _ in results[0])
    base_cpu = statistics.median(c for _, c in results[0])
    for i in range(1, len(commands)):
        wall = statistics.median(w for w, _ in results[i])
        cpu = statistics.median(c for _, c in results[i])
        print(f"{i + 1}/1: wall {wall / base_wall:.2f}x  cpu {cpu / base_cpu:.2f}x" if base_cpu > 0
              else f"{i + 1}/1: wall {wall / base_wall:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
