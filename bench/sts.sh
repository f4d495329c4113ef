#!/usr/bin/env bash
# STS v6 (the Strategic Test Suite, 1,188 positional positions in 15 themes) at a fixed node
# budget per position, the embedded engine and Stockfish side by side (one thread, 64 MB of
# hash, cleared per position). Each position awards points (c8/c9: 100 for the best move,
# less for others); the score is the sum over the suite and its percentage of the maximum.
# A node budget makes the run independent of the machine's speed and load.
#
#   bookforge bench --epd STS1-STS15_LAN_v6.epd --nodes 100000 [--engine /usr/games/stockfish]
#
# usage: bench/sts.sh [path/to/bookforge] [nodes]
set -euo pipefail
cd "$(dirname "$0")/.."

bookforge=$(realpath "${1:-build/bin/bookforge}")
nodes=${2:-100000}
stockfish=${STOCKFISH:-/usr/games/stockfish}
data=${BOOKFORGE_SHARED_DATA:-../shared/data}
epd=$data/tactics/sts/STS1-STS15_LAN_v6.epd
[[ -x $bookforge ]] || { echo "not executable: $bookforge" >&2; exit 1; }
[[ -f $epd ]] || { echo "missing $epd (../shared/data)" >&2; exit 1; }

work=${BOOKFORGE_BENCH_DIR:-${TMPDIR:-/tmp}/bookforge-bench}
mkdir -p "$work"
tmp=$(mktemp -d "$work/sts.XXXXXX")

"$bookforge" bench --epd "$epd" --nodes "$nodes" --hash 64 > "$tmp/bookforge.txt"
if [[ -x $stockfish ]]; then
  "$bookforge" bench --epd "$epd" --nodes "$nodes" --hash 64 --engine "$stockfish" > "$tmp/stockfish.txt"
fi
for f in "$tmp"/bookforge.txt "$tmp"/stockfish.txt; do
  [[ -f $f ]] || continue
  grep -E '^(Engine|Points|Solved|Nodes searched|Total time)' "$f"
  echo
done
echo "full listings in $tmp"
