#!/bin/sh
# Derives data-samples/openings.tsv from lichess's opening tables (lichess-org/chess-openings,
# CC0): one row per named position, "<Polyglot key>\t<ECO>\t<name>", sorted by key. The key is
# the one of the position after the opening's moves, as `bookforge key --moves` computes it.
# When several lines reach the same position, the name with the fewest moves wins (then the
# first in ECO order): the position's most general name.
#
# Usage: scripts/make_openings_table.sh BOOKFORGE [OPENINGS_DIR] > data-samples/openings.tsv
#   OPENINGS_DIR defaults to ../shared/data/openings/lichess-chess-openings
set -eu
export LC_ALL=C
bookforge=${1:?usage: $0 BOOKFORGE [OPENINGS_DIR]}
dir=${2:-$(dirname "$0")/../../shared/data/openings/lichess-chess-openings}

printf 'key\teco\tname\n'
for f in "$dir"/a.tsv "$dir"/b.tsv "$dir"/c.tsv "$dir"/d.tsv "$dir"/e.tsv; do
  tail -n +2 "$f"
done | {
  row=0
  while IFS="$(printf '\t')" read -r eco name moves; do
    row=$((row + 1))
    key=$("$bookforge" key --moves "$moves")
    # Plies = words that are not move numbers.
    plies=$(printf '%s\n' "$moves" | tr ' ' '\n' | grep -cv '^[0-9]*\.')
    printf '%s\t%05d\t%06d\t%s\t%s\n' "$key" "$plies" "$row" "$eco" "$name"
  done
} | sort -t "$(printf '\t')" -k1,1 -k2,2 -k3,3 | awk -F '\t' '$1 != last { print $1 "\t" $4 "\t" $5; last = $1 }'
