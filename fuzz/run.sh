#!/bin/sh
# Runs a fuzz target for a while. pgn_fuzz is seeded from the project's quirk files and the
# shared tricky-PGN collection (../shared/data/pgn-tricky, when present); abk_fuzz from the
# entries of the shipped Arena book (data-samples/libra8.abk.xz): its first 200, and 200 from
# its middle; ctg_fuzz from the data page of the shipped ChessBase book (data-samples/simple.ctg.xz).
#   fuzz/run.sh BUILD/bin/pgn_fuzz|abk_fuzz|ctg_fuzz [SECONDS] [extra libFuzzer flags...]
# Exits non-zero when the fuzzer finds a crash; the reproducer is left in ./fuzz-artifacts/
# (or $BOOKFORGE_FUZZ_ARTIFACTS). $BOOKFORGE_FUZZ_WORKDIR keeps the corpus between runs.
set -eu
fuzzer=$1
seconds=${2:-60}
[ $# -ge 2 ] && shift 2 || shift $#
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
if [ -n "${BOOKFORGE_FUZZ_WORKDIR:-}" ]; then
  work=$BOOKFORGE_FUZZ_WORKDIR
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
artifacts=${BOOKFORGE_FUZZ_ARTIFACTS:-$PWD/fuzz-artifacts}
mkdir -p "$work/corpus" "$work/seeds" "$artifacts"
if [ "$(basename "$fuzzer")" = ctg_fuzz ]; then
  # The target puts a 4096-byte header page before its input: a seed is data pages only.
  xz -dc "$root/data-samples/simple.ctg.xz" | tail -c +4097 > "$work/seeds/simple"
elif [ "$(basename "$fuzzer")" = abk_fuzz ]; then
  # The target puts the 25200-byte header before its input: a seed is entries only.
  xz -dc "$root/data-samples/libra8.abk.xz" | tail -c +25201 | head -c 5600 > "$work/seeds/start"
  xz -dc "$root/data-samples/libra8.abk.xz" | tail -c +2000001 | head -c 5600 > "$work/seeds/middle"
else
  cp "$root"/tests/data/pgn/*.pgn "$work/seeds/"
  tricky="$root/../shared/data/pgn-tricky"
  if [ -d "$tricky" ]; then
    # Seeds keep their first 64 KiB: long files add nothing the fuzzer would not find faster.
    find "$tricky" -type f | while read -r f; do
      head -c 65536 "$f" > "$work/seeds/$(echo "$f" | tr '/' '_')"
    done
  fi
  # Two leading bytes pick the block size and options (see pgn_fuzz.cpp): prepend a neutral pair.
  for f in "$work"/seeds/*; do printf '\003\050' | cat - "$f" > "$f.seed" && rm "$f"; done
fi
"$fuzzer" -max_total_time="$seconds" -max_len=65536 -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$artifacts/" "$@" "$work/corpus" "$work/seeds"
