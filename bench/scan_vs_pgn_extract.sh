#!/usr/bin/env bash
# Full replay (no ply limit: every move of every game checked) against pgn-extract, which
# also checks every move. Target: bookforge at least 20x faster.
#
#   pgn-extract -s -o /dev/null PART1.pgn   vs   bookforge scan --threads 2 PART1.pgn
#
# usage: bench/scan_vs_pgn_extract.sh [path/to/bookforge]
source "$(dirname "$0")/scan_common.sh"
pgn_extract=${PGN_EXTRACT:-/usr/games/pgn-extract}
side_by_side pgn_extract 3 "'$pgn_extract' -s -o /dev/null '$part1'" \
  "'$bookforge' scan --threads $threads --max-ply 0 --quiet '$part1'"
