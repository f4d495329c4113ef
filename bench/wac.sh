#!/usr/bin/env bash
# WAC (Win At Chess, 300 tactical positions) at a fixed time per position, the embedded engine
# and Stockfish side by side, both with one thread and 64 MB of hash, each position searched
# from a cleared hash. Target: at least 280/300 at 1 s per position for the embedded engine.
#
#   bookforge bench --epd win_at_chess_test.epd --movetime 1000 [--engine /usr/games/stockfish]
#
# A position counts as solved when the move played is one of its bm moves (and none of its am
# moves). Timed runs depend on the machine being otherwise idle: the load average is printed.
#
# usage: bench/wac.sh [path/to/bookforge] [movetime_ms]
set -euo pipefail
cd "$(dirname "$0")/.."

bookforge=$(realpath "${1:-build/bin/bookforge}")
movetime=${2:-1000}
stockfish=${STOCKFISH:-/usr/games/stockfish}
data=${BOOKFORGE_SHARED_DATA:-../shared/data}
epd=$data/tactics/sunfish/win_at_chess_test.epd
[[ -x $bookforge ]] || { echo "not executable: $bookforge" >&2; exit 1; }
[[ -f $epd ]] || { echo "missing $epd (../shared/data)" >&2; exit 1; }

work=${BOOKFORGE_BENCH_DIR:-${TMPDIR:-/tmp}/bookforge-bench}
mkdir -p "$work"
tmp=$(mktemp -d "$work/wac.XXXXXX")

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$bookforge" bench --epd "$epd" --movetime "$movetime" --hash 64 > "$tmp/bookforge.txt"
echo "load average between: $(cut -d' ' -f1-3 /proc/loadavg)"
if [[ -x $stockfish ]]; then
  "$bookforge" bench --epd "$epd" --movetime "$movetime" --hash 64 --engine "$stockfish" > "$tmp/stockfish.txt"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

for f in "$tmp"/bookforge.txt "$tmp"/stockfish.txt; do
  [[ -f $f ]] || continue
  grep -E '^(Engine|Solved|Nodes searched|Total time)' "$f"
  echo "failed: $(grep -E ' FAILED ' "$f" | awk '{print $2}' | tr '\n' ' ')"
  echo
done
echo "full listings in $tmp"
