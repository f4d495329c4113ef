#!/usr/bin/env bash
# Trains the evaluation network (engine/nnue.h) from the shared data, the way the shipped
# engine/network.nnue was made (docs/engine.md, "The evaluation network"):
#
#   1. quiet positions of real games: pgnmentor's three files and lichess 2016-05
#      (tools/eval_tune --dump), one in five, then one in two of those not already taken;
#      lichess 2017-05 is held back, for rescoring's held-out figures, and every position of it
#      (openings included) is left out of the training positions;
#   2. each labelled with Stockfish's static evaluation (tools/sf_label --static), on every core;
#   3. trained (tools/nnue_train), a twentieth of the positions held out from training.
#
# usage: scripts/train-network.sh [OUT.nnue] [-- nnue_train options]
#        (default OUT: engine/network.nnue; BOOKFORGE_SHARED_DATA as for the tests)
#
# About 35 minutes on 2 cores: labelling 9.5 M positions takes most of it. Then rebuild, and
# judge the new network by games (bench/engine_match.sh --base-rev main) before shipping it.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-engine/network.nnue}")
shift || true
[[ ${1:-} == -- ]] && shift
data=${BOOKFORGE_SHARED_DATA:-../shared/data}/games
stockfish=${STOCKFISH:-/usr/games/stockfish}
[[ -x $stockfish ]] || { echo "train-network: no Stockfish at $stockfish (set STOCKFISH)" >&2; exit 1; }

build=build-tools
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DBOOKFORGE_BUILD_TOOLS=ON >/dev/null
cmake --build "$build" --target eval_tune sf_label nnue_train >/dev/null

work=$(mktemp -d "${TMPDIR:-/tmp}/bookforge-network.XXXXXX")
trap 'rm -rf "$work"' EXIT
games=("$data"/pgnmentor_players_part{1_Alekhine-Ivanchuk,2_IvanovA-Petrosian,3_Philidor-Zvjaginsev}.pgn.zst
  "$data/lichess-org-database_2016-05.pgn")
"$build/bin/eval_tune" --dump "$work/fifths.txt" --positions 4000000 --sample 5 "${games[@]}"
"$build/bin/eval_tune" --dump "$work/halves.txt" --positions 12000000 --sample 2 "${games[@]}"
"$build/bin/eval_tune" --dump "$work/held-back.txt" --positions 1000000 --sample 1 --min-ply 0 \
  "$data/lichess-org-database_2017-05.pgn"
# Lines are "FEN|result". A position of the held-back sample is left out whatever its move
# counters (the FEN's first four fields); the second set keeps the lines the first has not. The
# order of the lines is kept (the trainer's draws follow it).
awk -F'|' -v first="$work/first.txt" -v second="$work/second.txt" '
  function where(fen, f) { split(fen, f, " "); return f[1] " " f[2] " " f[3] " " f[4] }
  FILENAME == ARGV[1] { held[where($1)] = 1; next }
  FILENAME == ARGV[2] { if (!(where($1) in held)) { taken[$1] = 1; print > first }; next }
  !($1 in taken) && !(where($1) in held) { print > second }' \
  "$work/held-back.txt" "$work/fifths.txt" "$work/halves.txt"
cores=$(nproc)
label() { # positions -> scored, on every core, in the positions' order
  split -n "l/$cores" -d "$1" "$work/part."
  local pids=() part
  for part in "$work"/part.*; do
    "$build/bin/sf_label" --engine "$stockfish" --static < "$part" > "$part.scored" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid"; done
  cat "$work"/part.*.scored > "$2"
  rm -f "$work"/part.*
}
label "$work/first.txt" "$work/first.scored"
label "$work/second.txt" "$work/second.scored"
cat "$work/first.scored" "$work/second.scored" > "$work/scored.txt"
"$build/bin/nnue_train" "$work/scored.txt" -o "$work/network.nnue" --threads "$cores" "$@"
mv "$work/network.nnue" "$out"
echo "wrote $out"
