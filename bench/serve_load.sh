#!/usr/bin/env bash
# Load on `bookforge serve`, loopback only: 50 concurrent clients for 30 s asking the explorer
# (/api/explorer) at random positions of a store of all pgnmentor games (the three files of
# ../shared/data/games, 412k games), first alone, then while 200 slow clients hold connections
# open (bench/slow_clients.h: each sends a header line every 2.5 s and never the end of its
# head). Prints p50 / p90 / p99 latency, requests per second and errors of each run, then a
# table of them (bench/serve_load.cpp is the client; a request unanswered in 5 s is an error).
#
# OLD=path/to/bookforge runs the same loads on that binary too (main's build, say), in the same
# run, each just before this build's. The store: STORE=path, or else <build>/bench-data/pgnmentor-all.sqlite,
# made here by `db add` on first use and kept for the next runs. CLIENTS, SECONDS_TO_RUN and
# SLOW (the slow clients of the second run; 0: no second run) change the load.
#
# usage: [OLD=path/to/bookforge] bench/serve_load.sh [path/to/build]
set -euo pipefail
cd "$(dirname "$0")/.."

build=$(realpath "${1:-build}")
bookforge=$build/bin/bookforge
load=$build/bin/serve_load
data=${BOOKFORGE_SHARED_DATA:-../shared/data}
old=${OLD:+$(realpath "$OLD")}
for tool in "$bookforge" "$load" ${old:+"$old"}; do [[ -x $tool ]] || { echo "not executable: $tool" >&2; exit 1; }; done
slow=${SLOW:-200}

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
stop_server() {
  if [[ -n $server ]]; then kill -INT "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  server=
}
cleanup() {
  stop_server
  rm -rf "$tmp"
}
trap cleanup EXIT

table=()
# measure NAME BINARY SLOW_CLIENTS: one run on a fresh server.
measure() {
  local name=$1 binary=$2 slow_clients=$3
  rm -f "$tmp/url"  # else the wait below may read the last run's URL before the file is truncated
  "$binary" serve --db "$store" --host 127.0.0.1 --port 0 >"$tmp/url" &
  server=$!
  for _ in $(seq 1200); do grep -qs http "$tmp/url" && break; sleep 0.1; done  # opening reads the store's counts
  local url port
  url=$(grep -o 'http://[^ ]*' "$tmp/url") || { echo "the server did not start: $binary" >&2; exit 1; }
  port=${url##*:}
  port=${port%/}
  echo
  echo "serve_load: $name, $slow_clients slow clients: $binary serve --db $store ($url)"
  # serve_load exits 1 when some requests failed: that is a figure here, not a failure.
  "$load" --db "$store" --host 127.0.0.1 --port "$port" --clients "${CLIENTS:-50}" \
    --seconds "${SECONDS_TO_RUN:-30}" --slow "$slow_clients" | tee "$tmp/run" || true
  stop_server
  local requests rate errors p50 p99
  read -r requests errors rate < <(sed -n 's/^requests \([0-9]*\) ok, \([0-9]*\) errors, \([0-9]*\) requests\/s$/\1 \2 \3/p' "$tmp/run") || true
  read -r p50 p99 < <(sed -n 's/^latency ms: p50 \([0-9.]*\) .* p99 \([0-9.]*\) .*/\1 \2/p' "$tmp/run") || true
  table+=("$(printf '%-6s %6s %12s %10s %10s %8s' "$name" "$slow_clients" "$rate" "$p50" "$p99" "$errors")")
}

# Each load on one binary right after the other, so that both meet the machine alike.
loads=(0)
if ((slow > 0)); then loads+=("$slow"); fi
for slow_clients in "${loads[@]}"; do
  for run in ${old:+old} new; do
    binary=$bookforge
    [[ $run == old ]] && binary=$old
    measure "$run" "$binary" "$slow_clients"
  done
done

echo
printf '%-6s %6s %12s %10s %10s %8s\n' binary slow requests/s "p50 ms" "p99 ms" errors
printf '%s\n' "${table[@]}"
