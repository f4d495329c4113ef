#!/usr/bin/env bash
# scan --max-ply 40 on the zstd file against the I/O floor: decompress and count games with
# grep. Target: scan takes at most 3x the floor's wall time (ratio >= 0.33).
#
#   zstdcat PART1.zst | grep -c '^\[Event '   vs   bookforge scan --threads 2 --max-ply 40 PART1.zst
#
# usage: bench/scan_vs_io_floor.sh [path/to/bookforge]
source "$(dirname "$0")/scan_common.sh"
side_by_side io_floor 10 "zstdcat '$part1_zst' | grep -c '^\[Event '" \
  "'$bookforge' scan --threads $threads --max-ply 40 --quiet '$part1_zst'"
