#!/usr/bin/env bash
# Load on `bookforge serve`, loopback only: 50 concurrent clients for 30 s asking the explorer
# (/api/explorer) at random positions of a store of all pgnmentor games (the three files of
# ../shared/data/games, 412k games). Prints p50 / p90 / p99 latency, requests per second and
# errors (bench/serve_load.cpp is the client).
#
# The store: STORE=path, or else <build>/bench-data/pgnmentor-all.sqlite, made here by
# `db add` on first use and kept for the next runs. CLIENTS and SECONDS_TO_RUN change the load.
#
# usage: bench/serve_load.sh [path/to/build]
set -euo pipefail
cd "$(dirname "$0")/.."

build=$(realpath "${1:-build}")
bookforge=$build/bin/bookforge
load=$build/bin/serve_load
data=${BOOKFORGE_SHARED_DATA:-../shared/data}
for tool in "$bookforge" "$load"; do [[ -x $tool ]] || { echo "not executable: $tool" >&2; exit 1; }; done

store=${STORE:-$build/bench-data/pgnmentor-all.sqlite}
if [[ ! -f $store ]]; then
  parts=("$data"/games/pgnmentor_players_part{1,2,3}_*.pgn.zst)
  for part in "${parts[@]}"; do [[ -f $part ]] || { echo "missing $part (../shared/data); or give STORE=path" >&2; exit 1; }; done
  mkdir -p "$(dirname "$store")"
  echo "serve_load: making $store from ${#parts[@]} pgnmentor files (once)"
  "$bookforge" db add --db "$store" --progress never --quiet "${parts[@]}"
fi
"$bookforge" db stats --db "$store" | head -3

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bookforge-serve-load.XXXXXX")
server=
cleanup() {
  if [[ -n $server ]]; then kill -INT "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

"$bookforge" serve --db "$store" --host 127.0.0.1 --port 0 >"$tmp/url" &
server=$!
for _ in $(seq 300); do grep -q http "$tmp/url" && break; sleep 0.1; done
url=$(grep -o 'http://[^ ]*' "$tmp/url") || { echo "the server did not start" >&2; exit 1; }
port=${url##*:}
port=${port%/}
echo "serve_load: $bookforge serve --db $store  ($url)"

"$load" --db "$store" --host 127.0.0.1 --port "$port" --clients "${CLIENTS:-50}" --seconds "${SECONDS_TO_RUN:-30}"
