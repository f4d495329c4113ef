#!/usr/bin/env bash
# Trains the evaluation network (engine/nnue.h) from the shared data, the way the shipped
# engine/network.nnue was made (docs/engine.md, "The evaluation network"):
#
#   1. quiet positions of real games, one in five: pgnmentor's three files and lichess 2016-05
#      (tools/eval_tune --dump); lichess 2017-05 is held back, for rescoring's held-out figures;
#   2. each labelled with Stockfish's static evaluation (tools/sf_label --static), on every core;
#   3. trained (tools/nnue_train), a twentieth of the positions held out from training.
#
# usage: scripts/train-network.sh [OUT.nnue] [-- nnue_train options]
#        (default OUT: engine/network.nnue; BOOKFORGE_SHARED_DATA as for the tests)
#
# About 10 minutes on 2 cores: labelling 3.5 M positions takes most of it. Then rebuild, and
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
"$build/bin/eval_tune" --dump "$work/positions.txt" --positions 4000000 --sample 5 \
  "$data"/pgnmentor_players_part{1_Alekhine-Ivanchuk,2_IvanovA-Petrosian,3_Philidor-Zvjaginsev}.pgn.zst \
  "$data/lichess-org-database_2016-05.pgn"
cores=$(nproc)
split -n "l/$cores" -d "$work/positions.txt" "$work/part."
pids=()
for part in "$work"/part.*; do
  "$build/bin/sf_label" --engine "$stockfish" --static < "$part" > "$part.scored" &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
cat "$work"/part.*.scored > "$work/scored.txt"
"$build/bin/nnue_train" "$work/scored.txt" -o "$work/network.nnue" --threads "$cores" "$@"
mv "$work/network.nnue" "$out"
echo "wrote $out"
