#!/usr/bin/env bash
# `db explore` latency on a real store: the query itself over 10,000 random positions
# (bench_db_explore, Google Benchmark: mean, median, 99th percentile per query), the query under
# slice filters (SlicesTimed/N: the start position and 100 random positions, with no filter, the
# issue's example "blitz,rapid / 2000,2200 / 2019-01..2023-12", one band, one decade; target:
# p99 <= 20 ms), and the whole
# `bookforge db explore` command (process start, opening the store, the opening-name table,
# printing) timed by hyperfine for a few positions.
#
# The store: STORE=path (e.g. all three pgnmentor files and both lichess samples:
# KEEP=dir OLD=old/bookforge bench/db_add.sh keeps it), or else one made here from pgnmentor
# part 1 (--max-ply 40).
#
# usage: bench/db_explore.sh [path/to/build]
set -euo pipefail
cd "$(dirname "$0")/.."

build=$(realpath "${1:-build}")
bookforge=$build/bin/bookforge
bench=$build/bin/bench_db_explore
data=${BOOKFORGE_SHARED_DATA:-../shared/data}
for tool in "$bookforge" "$bench"; do [[ -x $tool ]] || { echo "not executable: $tool" >&2; exit 1; }; done
command -v hyperfine >/dev/null || { echo "hyperfine is needed (scripts/install-deps.sh)" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bookforge-explore-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
store=${STORE:-}
if [[ -z $store ]]; then
  part1=$data/games/pgnmentor_players_part1_Alekhine-Ivanchuk.pgn.zst
  [[ -f $part1 ]] || { echo "missing $part1 (../shared/data); or give STORE=path" >&2; exit 1; }
  store=$tmp/p1.sqlite
  "$bookforge" db add "$part1" --db "$store" --max-ply 40 --progress never --quiet
fi
"$bookforge" db stats --db "$store" | head -3

BOOKFORGE_DB_BENCH_STORE=$store "$bench" --benchmark_counters_tabular=true

hyperfine --style basic --warmup 2 --runs 20 \
  "$bookforge db explore --db $store" \
  "$bookforge db explore --db $store --moves 'e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6'" \
  "$bookforge db explore --db $store --json --moves 'd4 Nf6 c4 e6 Nc3 Bb4'"
