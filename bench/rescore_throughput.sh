#!/usr/bin/env bash
# Rescoring throughput: positions rescored per second at depth 8 with 2 threads, on the book
# built from pgnmentor part 1 (137k games) with the default rules, the embedded engine and
# Stockfish (through --rescore-engine, the same depth and threads) side by side in one run.
#
#   bookforge build PART1.zst -o book.bin --rescore-depth 8 --threads 2 [--rescore-engine SF]
#
# A position is rescored when it is reachable from the start through kept moves and has a
# candidate: two searches each (all moves for the engine's best, then the candidates with that
# move; see book/rescore.h). The build prints "rescored N positions (C candidates, D dropped,
# ...) in S s, R positions/s"; that line is quoted for each engine, with the whole build's wall
# time. A fixed depth makes the result (the book and the list of dropped moves) independent of
# the machine's load; the rate is not.
#
# usage: bench/rescore_throughput.sh [path/to/bookforge] [depth] [threads]
set -euo pipefail
cd "$(dirname "$0")/.."

bookforge=$(realpath "${1:-build/bin/bookforge}")
depth=${2:-8}
threads=${3:-2}
stockfish=${STOCKFISH:-/usr/games/stockfish}
data=${BOOKFORGE_SHARED_DATA:-../shared/data}
part1=${INPUT:-$data/games/pgnmentor_players_part1_Alekhine-Ivanchuk.pgn.zst}
[[ -x $bookforge ]] || { echo "not executable: $bookforge" >&2; exit 1; }
[[ -f $part1 ]] || { echo "missing $part1 (../shared/data)" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bookforge-rescore-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

echo "load average $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; depth $depth, $threads threads"
run() { # label extra-args...
  local label=$1
  shift
  local start end
  start=$(date +%s.%N)
  "$bookforge" build "$part1" -o "$tmp/$label.bin" --rescore-depth "$depth" --threads "$threads" \
    --progress never "$@" 2> "$tmp/$label.err" > "$tmp/$label.out"
  end=$(date +%s.%N)
  printf '%-10s %s\n' "$label" "$(grep -h '^rescored' "$tmp/$label.out" "$tmp/$label.err" | head -1)"
  printf '%-10s build wall %.1f s; %s entries\n' "$label" \
    "$(echo "$end - $start" | bc -l)" "$(( $(stat -c %s "$tmp/$label.bin") / 16 ))"
}
"$bookforge" build "$part1" -o "$tmp/plain.bin" --threads "$threads" --progress never --quiet
echo "without rescoring: $(( $(stat -c %s "$tmp/plain.bin") / 16 )) entries"
run embedded
if [[ -x $stockfish ]]; then run stockfish --rescore-engine "$stockfish"; fi
