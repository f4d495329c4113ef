#!/usr/bin/env bash
# scan --max-ply 40 on the plain pgnmentor part 1 against polyglot make-book with the same ply
# limit (which also parses every game up to ply 40). Target: bookforge at least 25x faster.
#
#   polyglot make-book -pgn PART1.pgn -bin x.bin -max-ply 40   vs   bookforge scan --threads 2 --max-ply 40 PART1.pgn
#
# usage: bench/scan_vs_polyglot.sh [path/to/bookforge]
source "$(dirname "$0")/scan_common.sh"
polyglot=${POLYGLOT:-/usr/games/polyglot}
side_by_side polyglot 3 "'$polyglot' make-book -pgn '$part1' -bin '$work/polyglot.bin' -max-ply 40 > /dev/null" \
  "'$bookforge' scan --threads $threads --max-ply 40 --quiet '$part1'"
