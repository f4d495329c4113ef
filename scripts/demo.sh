#!/usr/bin/env bash
# The main job on the shipped samples: install, build the bookforge binary (only it: the test
# suites are scripts/test.sh's), build a book from data-samples/ and probe it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh bookforge
bf=build/bin/bookforge
out=build/demo
mkdir -p "$out"
set -x
$bf build data-samples/twic0920-2000.pgn data-samples/lichess-2016-05-1000.pgn \
  --min-move-games 5 --report "$out/demo-report.json" -o "$out/demo.bin"
$bf info "$out/demo.bin"
$bf probe "$out/demo.bin"
$bf probe "$out/demo.bin" --moves "e4 c5"
$bf pick "$out/demo.bin" --moves "d4 Nf6" --seed 1
