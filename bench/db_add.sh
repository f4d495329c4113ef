#!/usr/bin/env bash
# `bookforge db add` against `bookforge build` on the same input, side by side in one run
# (target: db add <= 3x build's wall time), then the incremental cost: part 2 added to the
# store of part 1, against part 2 into an empty store.
#
#   1. build  pgnmentor part 1 (137k games) --max-ply 40           -> book
#   2. db add pgnmentor part 1 --max-ply 40 into a new store        -> store of part 1
#   3. db add pgnmentor part 2 --max-ply 40 into the store of part 1 (a fresh copy each run)
#   4. db add pgnmentor part 2 --max-ply 40 into a new store
#
# Wall times are hyperfine means over `runs` runs; peak RSS from one /usr/bin/time run each.
# With KEEP=DIR the store of parts 1 + 2 is left in DIR (bench/db_explore.sh can use it).
#
# With OLD=path/to/an/older/bookforge it compares the two instead, side by side: `db add` of all
# three pgnmentor files and both lichess samples into a new store (412k + 10k games, the default
# max-ply 60), alternating old and new `runs` times (bench/alternate.py), with the ratio of the
# median wall times and of the stores' sizes (target for the store's slices, issue 14: within
# 1.5x the time and 3x the size of the store before them), then the peak RSS of each with
# --memory 256M.
#
# usage: bench/db_add.sh [path/to/bookforge] [runs]
#        OLD=path/to/old/bookforge bench/db_add.sh [path/to/bookforge] [runs]
set -euo pipefail
cd "$(dirname "$0")/.."

bookforge=$(realpath "${1:-build/bin/bookforge}")
runs=${2:-3}
data=${BOOKFORGE_SHARED_DATA:-../shared/data}
part1=$data/games/pgnmentor_players_part1_Alekhine-Ivanchuk.pgn.zst
part2=$data/games/pgnmentor_players_part2_IvanovA-Petrosian.pgn.zst
[[ -x $bookforge ]] || { echo "not executable: $bookforge" >&2; exit 1; }
for f in "$part1" "$part2"; do [[ -f $f ]] || { echo "missing $f (../shared/data)" >&2; exit 1; }; done
command -v hyperfine >/dev/null || { echo "hyperfine is needed (scripts/install-deps.sh)" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bookforge-db-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
q="--progress never --quiet"

if [[ -n ${OLD:-} ]]; then
  old=$(realpath "$OLD")
  [[ -x $old ]] || { echo "not executable: $old" >&2; exit 1; }
  inputs=("$part1" "$part2" "$data"/games/pgnmentor_players_part3_*.pgn.zst
          "$data"/games/lichess-org-database_2016-05.pgn "$data"/games/lichess-org-database_2017-05.pgn)
  for f in "${inputs[@]}"; do [[ -f $f ]] || { echo "missing $f (../shared/data)" >&2; exit 1; }; done
  # Each run starts from no store: a small script per binary removes it first.
  for side in old new; do
    binary=$old
    [[ $side == new ]] && binary=$bookforge
    printf '#!/bin/sh\nrm -f %s/%s.sqlite\nexec %s db add --db %s/%s.sqlite %s %s\n' \
      "$tmp" "$side" "$binary" "$tmp" "$side" "${inputs[*]}" "$q" > "$tmp/$side.sh"
    chmod +x "$tmp/$side.sh"
  done
  echo "old: $old"
  echo "new: $bookforge"
  echo "db add of ${#inputs[@]} files into a new store, $runs rounds alternating (load $(cut -d' ' -f1-3 /proc/loadavg))"
  python3 bench/alternate.py "$runs" "$tmp/old.sh" ";;" "$tmp/new.sh" | tee "$tmp/times.txt"
  old_ms=$(awk 'NR == 1 { print $4 }' "$tmp/times.txt")
  new_ms=$(awk 'NR == 2 { print $4 }' "$tmp/times.txt")
  old_size=$(stat -c %s "$tmp/old.sqlite")
  new_size=$(stat -c %s "$tmp/new.sqlite")
  awk -v o="$old_ms" -v n="$new_ms" 'BEGIN { printf "\ntime  new / old: %.2fx (target <= 1.5x)\n", n / o }'
  awk -v o="$old_size" -v n="$new_size" \
    'BEGIN { printf "size  new / old: %.2fx (%.0f MB / %.0f MB; target <= 3x)\n", n / o, n / 1048576, o / 1048576 }'
  "$bookforge" db stats --db "$tmp/new.sqlite" | head -3
  # Bounded memory: the same add with --memory 256M, one run each (the store's page cache, 64
  # MiB, and the duplicate filter's fingerprints, about 32 bytes a game, come on top of it).
  for side in old new; do
    binary=$old
    [[ $side == new ]] && binary=$bookforge
    rm -f "$tmp/$side.sqlite"
    /usr/bin/time -f "%M" -o "$tmp/$side.rss" "$binary" db add --db "$tmp/$side.sqlite" "${inputs[@]}" --memory 256M $q
    awk -v s="$side" '{ printf "peak RSS at --memory 256M, %s: %.0f MB\n", s, $1 / 1024 }' "$tmp/$side.rss"
  done
  if [[ -n ${KEEP:-} ]]; then
    mkdir -p "$KEEP"
    cp "$tmp/new.sqlite" "$KEEP/pgnmentor-lichess.sqlite"
    echo "kept $KEEP/pgnmentor-lichess.sqlite"
  fi
  exit 0
fi

mean_of() { jq -r '.results[0].mean' "$1"; }
rss_of() { # command... -> peak RSS in MB
  /usr/bin/time -f "%M" "$@" 2>&1 >/dev/null | tail -1 | awk '{printf "%.0f", $1 / 1024}'
}

echo "bookforge: $bookforge ($runs runs each; load average $(cut -d' ' -f1-3 /proc/loadavg))"
hyperfine --style none --runs "$runs" --export-json "$tmp/build.json" \
  "$bookforge build $part1 -o $tmp/book.bin --max-ply 40 $q" >/dev/null
hyperfine --style none --runs "$runs" --prepare "rm -f $tmp/p1.sqlite" --export-json "$tmp/add1.json" \
  "$bookforge db add $part1 --db $tmp/p1.sqlite --max-ply 40 $q" >/dev/null
hyperfine --style none --runs "$runs" --prepare "cp $tmp/p1.sqlite $tmp/p12.sqlite" --export-json "$tmp/add2.json" \
  "$bookforge db add $part2 --db $tmp/p12.sqlite --max-ply 40 $q" >/dev/null
hyperfine --style none --runs "$runs" --prepare "rm -f $tmp/p2.sqlite" --export-json "$tmp/add2new.json" \
  "$bookforge db add $part2 --db $tmp/p2.sqlite --max-ply 40 $q" >/dev/null

build=$(mean_of "$tmp/build.json")
add1=$(mean_of "$tmp/add1.json")
add2=$(mean_of "$tmp/add2.json")
add2new=$(mean_of "$tmp/add2new.json")
rss_build=$(rss_of "$bookforge" build "$part1" -o "$tmp/book.bin" --max-ply 40 $q)
rm -f "$tmp/p1.sqlite"
rss_add1=$(rss_of "$bookforge" db add "$part1" --db "$tmp/p1.sqlite" --max-ply 40 $q)
cp "$tmp/p1.sqlite" "$tmp/p12.sqlite"
rss_add2=$(rss_of "$bookforge" db add "$part2" --db "$tmp/p12.sqlite" --max-ply 40 $q)

printf "\n%-44s %9s %9s\n" "" "wall s" "peak MB"
printf "%-44s %9.2f %9s\n" "build part 1 --max-ply 40" "$build" "$rss_build"
printf "%-44s %9.2f %9s\n" "db add part 1 --max-ply 40 (new store)" "$add1" "$rss_add1"
printf "%-44s %9.2f %9s\n" "db add part 2 into the store of part 1" "$add2" "$rss_add2"
printf "%-44s %9.2f %9s\n" "db add part 2 into a new store" "$add2new" ""
awk -v a="$add1" -v b="$build" 'BEGIN { printf "\ndb add / build (part 1): %.2fx (target <= 3x)\n", a / b }'
awk -v a="$add2" -v b="$add2new" 'BEGIN { printf "part 2 into part 1 / part 2 into nothing: %.2fx\n", a / b }'
"$bookforge" db stats --db "$tmp/p12.sqlite" | head -3
ls -l "$tmp/p1.sqlite" "$tmp/p12.sqlite" | awk '{printf "%s: %.0f MB\n", $NF, $5 / 1048576}'

if [[ -n ${KEEP:-} ]]; then
  mkdir -p "$KEEP"
  cp "$tmp/p12.sqlite" "$KEEP/pgnmentor-1-2.sqlite"
  echo "kept $KEEP/pgnmentor-1-2.sqlite"
fi
