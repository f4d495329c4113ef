#!/usr/bin/env bash
# Peak memory of a scan stays flat as the input grows: one pgnmentor file against all three
# (zstd, 3 x 92 MB), full replay. Reports peak RSS from /usr/bin/time -v.
#
#   bookforge scan --threads 2 PART1.zst   vs   bookforge scan --threads 2 PART1.zst PART2.zst PART3.zst
#
# usage: bench/scan_memory.sh [path/to/bookforge]
source "$(dirname "$0")/scan_common.sh"
inputs=("$data"/games/pgnmentor_players_part{1,2,3}_*.pgn.zst)
peak() { # files... -> "games wall_s peak_MB"
  /usr/bin/time -v "$bookforge" scan --threads "$threads" --json --quiet "$@" > "$work/memory.json" 2> "$work/memory.time"
  local games; games=$(jq .games "$work/memory.json")
  awk -F': ' -v games="$games" '/Elapsed/ {split($2, t, ":"); wall = t[1] * 60 + t[2]}
    /Maximum resident/ {rss = $2 / 1024} END {printf "%d %.2f %.1f", games, wall, rss}' "$work/memory.time"
}
printf '%-10s %10s %8s %10s\n' inputs games "wall s" "peak MB"
read -r g w m <<< "$(peak "${inputs[0]}")"; printf '%-10s %10s %8s %10s\n' "1 file" "$g" "$w" "$m"
read -r g w m <<< "$(peak "${inputs[@]}")"; printf '%-10s %10s %8s %10s\n' "3 files" "$g" "$w" "$m"
