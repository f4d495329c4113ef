#!/usr/bin/env bash
# Perft speed of bookforge against Stockfish ("go perft N"), on the same positions in the same
# run. Both are timed by hyperfine; the start-up time of each program (measured on a depth-1
# perft of the same position) is subtracted, so the figures are nodes per second of the tree
# walk itself. Both count with bulk counting at the last ply.
#
# usage: bench/perft_vs_stockfish.sh [path/to/bookforge] [path/to/stockfish] [runs]
set -euo pipefail
cd "$(dirname "$0")/.."

bookforge=${1:-build/bin/bookforge}
stockfish=${2:-/usr/games/stockfish}
runs=${3:-3}
for tool in "$bookforge" "$stockfish"; do
  [[ -x $tool ]] || { echo "not executable: $tool" >&2; exit 1; }
done
command -v hyperfine >/dev/null || { echo "hyperfine is needed (scripts/install-deps.sh)" >&2; exit 1; }

# name|fen|depth
positions=(
  "start|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|6"
  "kiwipete|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|5"
  "cpw-pos3|8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1|7"
  "cpw-pos4|r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1|5"
  "cpw-pos5|rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8|5"
  "cpw-pos6|r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10|5"
)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sf_command() { # fen depth
  printf "printf 'position fen %s\\\\ngo perft %s\\\\nquit\\\\n' | %s" "$1" "$2" "$stockfish"
}
bf_command() { # fen depth
  printf "%s perft --fen '%s' --depth %s" "$bookforge" "$1" "$2"
}
# Mean wall time and mean CPU time (user + system) of one hyperfine run, in seconds.
times_of() { # json
  jq -r '.results[0] | "\(.mean) \(.user + .system)"' "$1"
}

printf "%-9s %5s %12s | %10s %10s | %10s %10s | %6s %6s\n" position depth nodes "bf Mn/s" "bf cpu" "sf Mn/s" "sf cpu" ratio "cpu"
total_bf=0 total_sf=0 total_bf_cpu=0 total_sf_cpu=0 total_nodes=0
for entry in "${positions[@]}"; do
  IFS='|' read -r name fen depth <<<"$entry"
  # Node counts first: both programs must agree.
  bf_nodes=$(eval "$(bf_command "$fen" "$depth")" | awk '/^nodes/ {print $2}')
  sf_nodes=$(eval "$(sf_command "$fen" "$depth")" | awk '/^Nodes searched/ {print $3}')
  if [[ $bf_nodes != "$sf_nodes" ]]; then
    echo "$name: node counts differ: bookforge $bf_nodes, stockfish $sf_nodes" >&2
    exit 1
  fi
  # hyperfine warns about short commands and noisy machines on stderr: the numbers speak.
  hyperfine --style none --warmup 1 --runs "$runs" --export-json "$tmp/bf.json" "$(bf_command "$fen" "$depth")" >/dev/null 2>&1
  hyperfine --style none --warmup 1 --runs "$runs" --export-json "$tmp/bf1.json" "$(bf_command "$fen" 1)" >/dev/null 2>&1
  hyperfine --style none --warmup 1 --runs "$runs" --export-json "$tmp/sf.json" "$(sf_command "$fen" "$depth")" >/dev/null 2>&1
  hyperfine --style none --warmup 1 --runs "$runs" --export-json "$tmp/sf1.json" "$(sf_command "$fen" 1)" >/dev/null 2>&1
  read -r bf_wall bf_cpu < <(times_of "$tmp/bf.json")
  read -r bf1_wall bf1_cpu < <(times_of "$tmp/bf1.json")
  read -r sf_wall sf_cpu < <(times_of "$tmp/sf.json")
  read -r sf1_wall sf1_cpu < <(times_of "$tmp/sf1.json")
  awk -v n="$bf_nodes" -v name="$name" -v d="$depth" \
    -v bw="$bf_wall" -v bw1="$bf1_wall" -v bc="$bf_cpu" -v bc1="$bf1_cpu" \
    -v sw="$sf_wall" -v sw1="$sf1_wall" -v sc="$sf_cpu" -v sc1="$sf1_cpu" 'BEGIN {
      b = n / (bw - bw1) / 1e6; s = n / (sw - sw1) / 1e6
      bcpu = n / (bc - bc1) / 1e6; scpu = n / (sc - sc1) / 1e6
      printf "%-9s %5d %12d | %10.1f %10.1f | %10.1f %10.1f | %6.2f %6.2f\n", name, d, n, b, bcpu, s, scpu, b / s, bcpu / scpu
    }'
  total_nodes=$((total_nodes + bf_nodes))
  total_bf=$(awk -v a="$total_bf" -v w="$bf_wall" -v w1="$bf1_wall" 'BEGIN {print a + w - w1}')
  total_sf=$(awk -v a="$total_sf" -v w="$sf_wall" -v w1="$sf1_wall" 'BEGIN {print a + w - w1}')
  total_bf_cpu=$(awk -v a="$total_bf_cpu" -v w="$bf_cpu" -v w1="$bf1_cpu" 'BEGIN {print a + w - w1}')
  total_sf_cpu=$(awk -v a="$total_sf_cpu" -v w="$sf_cpu" -v w1="$sf1_cpu" 'BEGIN {print a + w - w1}')
done
awk -v n="$total_nodes" -v b="$total_bf" -v s="$total_sf" -v bc="$total_bf_cpu" -v sc="$total_sf_cpu" 'BEGIN {
  printf "%-9s %5s %12d | %10.1f %10.1f | %10.1f %10.1f | %6.2f %6.2f\n", "all", "", n, n / b / 1e6, n / bc / 1e6,
         n / s / 1e6, n / sc / 1e6, s / b, sc / bc
}'
echo "ratio = bookforge nodes/s / stockfish nodes/s (wall time; cpu = user + system time), target >= 0.5"
