#!/usr/bin/env bash
# The cluster path's figures (docs/scale.md), each side by side in one run, alternating
# (bench/alternate.py), quoted as ratios, on pgnmentor part 1 (137k games, plain):
#
#   overhead  bookforge-dask build --local N   against  bookforge build --threads N   (goal <= 1.2x);
#             workers of one machine build in one task on their threads by default, and
#             --reduce direct shows the counted path a cluster of several machines takes
#   scaling   bookforge-dask build --local 1   against  --local 2, in one task (one thread against
#             two) and counted (two whole files: one shard against two)
#   per core  bookforge count --threads 1 --max-ply 40 (and with --keep-duplicates, which counts
#             every copy of a game as fastpopular does)  against  fastpopular --concurrency 1
#             --maxPlies 40 --minCount 2 (goal: count >= 4x faster), when FASTPOPULAR names a
#             fastpopular binary built from its public source (not part of bookforge)
#   parts     count of part 0/4 and 3/4 against the whole input, compressed (.zst) and plain
#   size      bytes of counts per game, for a book and for a store (the shuffle)
#
# Every cluster book is compared with the one-machine book byte for byte.
#
# usage: bench/cluster.sh [path/to/bookforge] [rounds]
set -euo pipefail
cd "$(dirname "$0")/.."

bookforge=$(realpath "${1:-build/bin/bookforge}")
rounds=${2:-3}
data=${BOOKFORGE_SHARED_DATA:-../shared/data}
driver=$(realpath cluster/bookforge-dask)
zst=$data/games/pgnmentor_players_part1_Alekhine-Ivanchuk.pgn.zst
[[ -x $bookforge ]] || { echo "not executable: $bookforge" >&2; exit 1; }
[[ -f $zst ]] || { echo "missing $zst (../shared/data)" >&2; exit 1; }

work=${BOOKFORGE_BENCH_DIR:-${TMPDIR:-/tmp}/bookforge-bench}
mkdir -p "$work"
pgn=$work/pgnmentor_part1.pgn
[[ -s $pgn ]] || zstd -q -dc "$zst" > "$pgn"
tmp=$(mktemp -d "$work/cluster.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# A command as one executable file, so that bench/alternate.py can run a shell line.
script() { # name line -> path
  printf '#!/usr/bin/env bash\nset -e\n%s\n' "$2" > "$tmp/$1"
  chmod +x "$tmp/$1"
  echo "$tmp/$1"
}
alternate() { python3 bench/alternate.py "$rounds" "$@"; }
q="--quiet --progress never"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $rounds rounds"

echo
echo "== overhead: the cluster path on this machine against one process (goal <= 1.2x)"
# case: label, workers, inputs, flags, the driver's own flags. By default the workers of this
# one machine build in one task; --reduce direct counts shards and runs the rules apart, the path
# of a cluster of several machines, to show what the counts files cost. Part 1's games are often
# in two shards (a player's games against another player of the same file), which the counted
# path counts again: --keep-duplicates shows it without that.
parts="$data/games/pgnmentor_players_part1_Alekhine-Ivanchuk.pgn.zst $data/games/pgnmentor_players_part2_IvanovA-Petrosian.pgn.zst $data/games/pgnmentor_players_part3_Philidor-Zvjaginsev.pgn.zst"
two="$data/games/pgnmentor_players_part1_Alekhine-Ivanchuk.pgn.zst $data/games/pgnmentor_players_part2_IvanovA-Petrosian.pgn.zst"
cases=("part1-w1|1|$pgn||" "part1-w2|2|$pgn||" "part1-counted-w2|2|$pgn||--reduce direct"
  "part1-keep-counted-w2|2|$pgn|--keep-duplicates|--reduce direct"
  "parts123-w1|1|$parts||" "parts123-w2|2|$parts||" "parts123-counted-w1|1|$parts||--reduce direct"
  "parts123-counted-w2|2|$parts||--reduce direct" "parts123-keep-w1|1|$parts|--keep-duplicates|"
  "parts12-keep-w1|1|$two|--keep-duplicates|" "parts12-keep-counted-w1|1|$two|--keep-duplicates|--reduce direct"
  "parts12-keep-counted-w2|2|$two|--keep-duplicates|--reduce direct")
for c in "${cases[@]}"; do
  IFS='|' read -r label n inputs flags own <<< "$c"
  one=$(script "one-$label" "$bookforge build $inputs -o $tmp/one-$label.bin --threads $n $q $flags")
  cl=$(script "dask-$label" "$driver build $inputs -o $tmp/dask-$label.bin --local $n --bookforge $bookforge --progress never --quiet $flags $own")
  "$one" && "$cl"
  cmp "$tmp/one-$label.bin" "$tmp/dask-$label.bin" && echo "$label: the books are the same"
  alternate "$one" ";;" "$cl"
done

echo
echo "== scaling: 1 -> 2 workers: the three files in one task, and two whole files counted"
alternate "$tmp/dask-parts123-w1" ";;" "$tmp/dask-parts123-w2"
alternate "$tmp/dask-parts12-keep-counted-w1" ";;" "$tmp/dask-parts12-keep-counted-w2"

echo
echo "== parts: a part of a compressed input decompresses the stream to its range's end, a plain"
echo "   one finds its range at little cost (why the driver cuts compressed inputs little)"
pc() { # name input part -> a count of that part, one thread
  script "$1" "rm -rf $tmp/$1.set && $bookforge count $2 -o $tmp/$1.set --partitions 4 --threads 1 $q ${3:+--part $3}"
}
alternate "$(pc zst-whole "$zst")" ";;" "$(pc zst-0of4 "$zst" 0/4)" ";;" "$(pc zst-3of4 "$zst" 3/4)" ";;" \
  "$(pc plain-whole "$pgn")" ";;" "$(pc plain-0of4 "$pgn" 0/4)" ";;" "$(pc plain-3of4 "$pgn" 3/4)"

echo
echo "== size: bytes of counts per game (count --partitions 4)"
for purpose in book store; do
  rm -rf "$tmp/set-$purpose"
  "$bookforge" count "$pgn" -o "$tmp/set-$purpose" --partitions 4 --for "$purpose" --progress never
done

if [[ -n ${FASTPOPULAR:-} ]]; then
  echo
  echo "== per core: bookforge count against fastpopular, 1 thread, max-ply 40 (goal >= 4x)"
  fp=$(script fastpopular "$FASTPOPULAR --file $pgn --maxPlies 40 --minCount 2 --concurrency 1 -o $tmp/fp.epd >/dev/null")
  ct=$(script count "rm -rf $tmp/c && $bookforge count $pgn -o $tmp/c --partitions 4 --threads 1 --max-ply 40 $q")
  # fastpopular counts every copy of a game: --keep-duplicates is the same work.
  ck=$(script count-keep "rm -rf $tmp/k && $bookforge count $pgn -o $tmp/k --partitions 4 --threads 1 --max-ply 40 --keep-duplicates $q")
  bd=$(script build "$bookforge build $pgn -o $tmp/b.bin --threads 1 --max-ply 40 $q")
  alternate "$fp" ";;" "$ct" ";;" "$ck" ";;" "$bd"
else
  echo
  echo "(per core against fastpopular: set FASTPOPULAR to a fastpopular binary built from its source)"
fi
