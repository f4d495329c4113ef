#!/usr/bin/env bash
# `bookforge build --rules polyglot` against `polyglot make-book` on pgnmentor part 1 (137k
# games) with -max-ply 40, side by side in one run. Targets: >= 20x faster wall time and
# <= 0.5x peak memory. Polyglot needs plain PGN, so the .zst is decompressed once into the
# work folder; bookforge is timed on that same plain file, and also on the .zst directly.
#
#   bookforge build PART1.pgn -o bf.bin --rules polyglot --max-ply 40 [--memory M]
#   polyglot make-book -pgn PART1.pgn -bin pg.bin -max-ply 40
#
# Wall time: hyperfine mean over `runs` runs (polyglot: 1 run, it takes a while); peak RSS:
# /usr/bin/time -v. The two books have the same entries for every key except where a count
# reached 16384 (Polyglot halves those in input order; bookforge scales once at the end).
#
# usage: bench/build_polyglot.sh [path/to/bookforge] [runs]
set -euo pipefail
cd "$(dirname "$0")/.."

bookforge=$(realpath "${1:-build/bin/bookforge}")
runs=${2:-3}
data=${BOOKFORGE_SHARED_DATA:-../shared/data}
polyglot=${POLYGLOT:-/usr/games/polyglot}
zst=$data/games/pgnmentor_players_part1_Alekhine-Ivanchuk.pgn.zst
[[ -x $bookforge ]] || { echo "not executable: $bookforge" >&2; exit 1; }
[[ -x $polyglot ]] || { echo "polyglot not found: $polyglot" >&2; exit 1; }
[[ -f $zst ]] || { echo "missing $zst (../shared/data)" >&2; exit 1; }
command -v hyperfine >/dev/null || { echo "hyperfine is needed (scripts/install-deps.sh)" >&2; exit 1; }

work=${BOOKFORGE_BENCH_DIR:-${TMPDIR:-/tmp}/bookforge-bench}
mkdir -p "$work"
pgn=$work/pgnmentor_part1.pgn
[[ -s $pgn ]] || zstd -q -dc "$zst" > "$pgn"
tmp=$(mktemp -d "$work/run.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

wall() { # label command... -> mean seconds over $runs runs
  local label=$1 n=$2; shift 2
  hyperfine --style none --runs "$n" --export-json "$tmp/$label.json" "$*" >/dev/null
  jq -r '.results[0].mean' "$tmp/$label.json"
}
rss() { # command... -> peak RSS in MB
  /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident/ {printf "%.1f", $2 / 1024}'
}

q="--quiet --progress never"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
pg_wall=$(wall polyglot 1 "$polyglot make-book -pgn $pgn -bin $tmp/pg.bin -max-ply 40")
pg_rss=$(rss "$polyglot" make-book -pgn "$pgn" -bin "$tmp/pg.bin" -max-ply 40)
printf '%-52s %8s %10s %8s %8s\n' "command" "wall s" "peak MB" "speed" "memory"
printf '%-52s %8.2f %10s %8s %8s\n' "polyglot make-book -max-ply 40" "$pg_wall" "$pg_rss" "1.0x" "1.00x"
for variant in "plain:$pgn:" "plain, --threads 1:$pgn:--threads 1" "zst:$zst:"; do
  IFS=: read -r label input extra <<< "$variant"
  cmd="$bookforge build $input -o $tmp/bf.bin --rules polyglot --max-ply 40 $q $extra"
  bf_wall=$(wall bookforge "$runs" "$cmd")
  # shellcheck disable=SC2086
  bf_rss=$(rss $cmd)
  printf '%-52s %8.2f %10s %7.1fx %7.2fx\n' "bookforge build --rules polyglot ($label)" "$bf_wall" "$bf_rss" \
    "$(echo "$pg_wall / $bf_wall" | bc -l)" "$(echo "$bf_rss / $pg_rss" | bc -l)"
done
echo "entries: polyglot $(( $(stat -c %s "$tmp/pg.bin") / 16 )), bookforge $(( $(stat -c %s "$tmp/bf.bin") / 16 ))"
