#!/usr/bin/env bash
# The book signature, as Stockfish's "Bench: N" pins its search: one hash of the books built
# from data-samples/ with a few rule sets (the default rules, polyglot's, a rating-weighted one
# for one side, and one rescored by the embedded engine at a fixed depth). It changes exactly
# when the bytes of a book change; a commit that changes it says so in its body, with the new
# signature, and updates tests/data/book-signature.txt, which the test suite holds it to.
# Usage: scripts/book-signature.sh [--check] [path/to/bookforge]   (default: build/bin/bookforge)
#   --check: exit 1 unless the signature is the one in tests/data/book-signature.txt (ctest runs it).
set -euo pipefail
cd "$(dirname "$0")/.."
check=false
if [[ ${1:-} == --check ]]; then check=true; shift; fi
bookforge=$(realpath "${1:-build/bin/bookforge}")
pinned=tests/data/book-signature.txt
inputs=(data-samples/twic0920-2000.pgn data-samples/lichess-2016-05-1000.pgn)
rule_sets=(
  ""
  "--rules polyglot"
  "--weight rating --side white --min-move-games 3 --max-ply 30"
  "--min-move-games 20 --max-ply 12 --rescore-depth 4 --threads 1"
)
work=$(mktemp -d "${TMPDIR:-/tmp}/bookforge-signature.XXXXXX")
trap 'rm -rf "$work"' EXIT
for i in "${!rule_sets[@]}"; do
  # shellcheck disable=SC2086 # each rule set is a list of flags
  "$bookforge" build "${inputs[@]}" ${rule_sets[$i]} --quiet -o "$work/$i.bin"
  sha256sum <"$work/$i.bin" | cut -c1-16
done >"$work/hashes"
signature="Books: $(sha256sum <"$work/hashes" | cut -c1-16)"
echo "$signature"
if $check && [[ $signature != "$(cat "$pinned")" ]]; then
  echo "book-signature: the books' bytes changed (pinned: $(cat "$pinned")). If that is meant, put the" \
    "new signature in $pinned and say so in the commit's body." >&2
  exit 1
fi
