#!/usr/bin/env bash
# Bounded memory: all three pgnmentor files (412k games, zstd) with no ply limit, built once
# with --memory 256M (the tally spills sorted runs and merges them) and once with no limit
# worth the name (--memory 64G: nothing spills). Target: the bounded run completes with a
# peak RSS under 400 MB, and both books are byte-identical (cmp). Then probes per second on
# the resulting book (bench_probe: the reader against std::lower_bound over the same keys).
#
#   bookforge build PART1 PART2 PART3 -o book.bin --rules polyglot --max-ply 0 --min-move-games 1 --memory 256M
#
# (--min-move-games 1: every move that ever scored is kept, so the book is as large as the
# tree itself, and cmp compares every (position, move) of the 412k games.)
#
# usage: bench/build_memory.sh [path/to/bookforge] [path/to/bench_probe]
set -euo pipefail
cd "$(dirname "$0")/.."

bookforge=$(realpath "${1:-build/bin/bookforge}")
bench_probe=$(realpath "${2:-$(dirname "$bookforge")/bench_probe}")
data=${BOOKFORGE_SHARED_DATA:-../shared/data}
inputs=("$data"/games/pgnmentor_players_part{1,2,3}_*.pgn.zst)
[[ -x $bookforge ]] || { echo "not executable: $bookforge" >&2; exit 1; }
for f in "${inputs[@]}"; do [[ -f $f ]] || { echo "missing $f (../shared/data)" >&2; exit 1; }; done

work=${BOOKFORGE_BENCH_DIR:-${TMPDIR:-/tmp}/bookforge-bench}
mkdir -p "$work"
tmp=$(mktemp -d "$work/memory.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

run() { # label memory -> "wall_s peak_MB" and the report in $tmp/label.json
  local label=$1 memory=$2
  /usr/bin/time -v "$bookforge" build "${inputs[@]}" -o "$tmp/$label.bin" --rules polyglot --max-ply 0 --min-move-games 1 \
    --memory "$memory" --tmp-dir "$tmp" --report "$tmp/$label.json" --quiet --progress never 2> "$tmp/$label.time"
  awk -F': ' '/Elapsed/ {split($2, t, ":"); wall = t[1] * 60 + t[2]} /Maximum resident/ {rss = $2 / 1024}
              END {printf "%.1f %.0f", wall, rss}' "$tmp/$label.time"
}
spills() { jq -r '.tally.spills' "$1"; }

echo "load average $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
read -r b_wall b_rss <<< "$(run bounded 256M)"
read -r u_wall u_rss <<< "$(run unlimited 64G)"
printf '%-28s %8s %10s %8s\n' "run" "wall s" "peak MB" "spills"
printf '%-28s %8s %10s %8s\n' "--memory 256M" "$b_wall" "$b_rss" "$(spills "$tmp/bounded.json")"
printf '%-28s %8s %10s %8s\n' "--memory 64G (no spill)" "$u_wall" "$u_rss" "$(spills "$tmp/unlimited.json")"
echo "games: $(jq -r '.games.accepted' "$tmp/bounded.json") accepted; book: $(jq -r '.entries' "$tmp/bounded.json") entries"
if cmp -s "$tmp/bounded.bin" "$tmp/unlimited.bin"; then echo "books: identical (cmp)"; else echo "books: DIFFER"; exit 1; fi
(( b_rss < 400 )) && echo "peak RSS under 400 MB: yes" || echo "peak RSS under 400 MB: NO"

if [[ -x $bench_probe ]]; then
  BOOKFORGE_BENCH_BOOK=$tmp/bounded.bin "$bench_probe" --benchmark_min_time=1
fi
