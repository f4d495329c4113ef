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
# /usr/bin/time -v. The wall time of this VM drifts by 10-20% over minutes, which one polyglot
# run followed by the bookforge runs cannot tell from a real difference, so the target ratio is
# then measured interleaved: `rounds` rounds of one polyglot run and 5 bookforge runs, each
# round's ratio printed, and the ratio of the medians over all rounds. The two books have the
# same entries for every key except where a count reached 16384 (Polyglot halves those in input
# order; bookforge scales once at the end): the script counts the entries that differ.
#
# usage: bench/build_polyglot.sh [path/to/bookforge] [runs] [rounds]
set -euo pipefail
cd "$(dirname "$0")/.."

bookforge=$(realpath "${1:-build/bin/bookforge}")
runs=${2:-3}
rounds=${3:-5}
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
# The books as sets of (key, move, weight), the first 12 bytes of each 16-byte entry: Polyglot
# orders entries of equal weight by qsort, so the files are not compared byte for byte.
entries_of() { od -An -v -tx1 -w16 "$1" | tr -d ' ' | cut -c1-24 | sort; }
entries_of "$tmp/pg.bin" > "$tmp/pg.entries"
entries_of "$tmp/bf.bin" > "$tmp/bf.entries"
echo "(key, move, weight) entries only in polyglot's book: $(comm -23 "$tmp/pg.entries" "$tmp/bf.entries" | wc -l)," \
  "only in bookforge's: $(comm -13 "$tmp/pg.entries" "$tmp/bf.entries" | wc -l)"

echo "interleaved, $rounds rounds (plain file): one polyglot run, then 5 bookforge runs"
pg_times=() bf_times=()
for ((r = 1; r <= rounds; r++)); do
  hyperfine --style none --runs 1 --export-json "$tmp/pg_round.json" \
    "$polyglot make-book -pgn $pgn -bin $tmp/pg.bin -max-ply 40" >/dev/null
  hyperfine --style none --runs 5 --export-json "$tmp/bf_round.json" \
    "$bookforge build $pgn -o $tmp/bf.bin --rules polyglot --max-ply 40 $q" >/dev/null
  pg=$(jq -r '.results[0].times[]' "$tmp/pg_round.json")
  mapfile -t bf < <(jq -r '.results[0].times[]' "$tmp/bf_round.json")
  pg_times+=("$pg") bf_times+=("${bf[@]}")
  bf_median=$(printf '%s\n' "${bf[@]}" | sort -g | sed -n 3p)
  printf 'round %d: polyglot %.2f s, bookforge median %.3f s: %.1fx\n' "$r" "$pg" "$bf_median" \
    "$(echo "$pg / $bf_median" | bc -l)"
done
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }
pg_med=$(printf '%s\n' "${pg_times[@]}" | median)
bf_med=$(printf '%s\n' "${bf_times[@]}" | median)
printf 'medians: polyglot %.2f s, bookforge %.3f s: %.1fx faster (target >= 20x)\n' "$pg_med" "$bf_med" \
  "$(echo "$pg_med / $bf_med" | bc -l)"
