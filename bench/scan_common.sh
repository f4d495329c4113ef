#!/usr/bin/env bash
# Shared by the scan_*.sh benchmarks (sourced, not run): finds bookforge and the pgnmentor
# file, decompresses it once, and compares commands side by side with hyperfine.
#   BOOKFORGE_BENCH_DIR  where the plain copy and results go (default /tmp/bookforge-bench)
#   BOOKFORGE_SHARED_DATA  the shared data folder (default ../shared/data)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bookforge=$(realpath "${1:-build/bin/bookforge}")
[[ -x $bookforge ]] || { echo "not executable: $bookforge" >&2; exit 1; }
data=${BOOKFORGE_SHARED_DATA:-../shared/data}
part1_zst="$data/games/pgnmentor_players_part1_Alekhine-Ivanchuk.pgn.zst"
[[ -f $part1_zst ]] || { echo "missing $part1_zst" >&2; exit 1; }
work=${BOOKFORGE_BENCH_DIR:-${TMPDIR:-/tmp}/bookforge-bench}
mkdir -p "$work"
part1="$work/pgnmentor_part1.pgn"
[[ -s $part1 ]] || zstdcat "$part1_zst" > "$part1"
threads=2

echo "load average $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; bookforge --threads $threads"

# side_by_side NAME RUNS REFERENCE_CMD BOOKFORGE_CMD: hyperfine both, print mean wall and CPU
# times and reference/bookforge ratios.
side_by_side() {
  local name=$1 runs=$2 reference=$3 ours=$4
  local json="$work/$name.json"
  hyperfine --warmup 1 --runs "$runs" --export-json "$json" -n reference "$reference" -n bookforge "$ours" >&2
  jq -r --arg name "$name" '
    .results as $r
    | ($r[0].mean) as $ref_wall | ($r[1].mean) as $our_wall
    | ($r[0].user + $r[0].system) as $ref_cpu | ($r[1].user + $r[1].system) as $our_cpu
    | "\($name): reference \($ref_wall * 1000 | round) ms wall / \($ref_cpu * 1000 | round) ms cpu;"
      + " bookforge \($our_wall * 1000 | round) ms wall / \($our_cpu * 1000 | round) ms cpu;"
      + " wall ratio reference/bookforge \(($ref_wall / $our_wall) * 100 | round / 100),"
      + " cpu ratio \(($ref_cpu / $our_cpu) * 100 | round / 100)"' "$json"
}
