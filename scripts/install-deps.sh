#!/usr/bin/env bash
# Installs everything bookforge needs to build, test, fuzz and benchmark, from Debian's
# archive only. Idempotent: packages already present are left alone. Run as root (or with
# sudo available) on Debian 12 or newer.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config clang libclang-rt-14-dev clang-format
  # libraries
  libboost-iostreams-dev zlib1g-dev libbz2-dev liblzma-dev libzstd-dev
  libsqlite3-dev libcli11-dev libtomlplusplus-dev
  # bookforge serve: the HTTP server and JSON
  libcpp-httplib-dev nlohmann-json3-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev
  # compressors used by tests and benchmarks
  gzip bzip2 xz-utils zstd
  # the HTTP client of the serve tests and the README's example
  curl python3
  # the Debian package (cpack's DEB generator computes Depends with dpkg-shlibdeps) and the
  # test that reads its manual page with man(1)
  dpkg-dev man-db
  # reference tools for side-by-side comparisons
  polyglot pgn-extract stockfish hyperfine time
  # the browser that the explorer page's test drives (tests/browser)
  chromium
  # the cluster driver (cluster/: bookforge-dask) and its tests; Debian's Dask serves
  # Debian's /usr/bin/python3
  python3-distributed python3-dask python3-pytest
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
# Node.js runs the test clients; a machine with its own Node.js keeps it (Debian's npm would
# conflict with a Node.js that bundles npm).
if ! command -v npm >/dev/null 2>&1; then missing+=(nodejs npm); fi

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages already installed"
else
  echo "install-deps: installing ${missing[*]}"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The Node.js test clients (tests/clients: chess.js judges the moves in the UCI client tests;
# lichess-opening-explorer is a lichess explorer client the server tests point at bookforge
# serve; chess-tools is an outside reader of ChessBase CTG books), from the npm registry, pinned by tests/clients/package-lock.json; installed again
# when the lock is newer.
clients="$(cd "$(dirname "$0")/.." && pwd)/tests/clients"
if [[ ! "$clients/node_modules/.package-lock.json" -nt "$clients/package-lock.json" ]]; then
  echo "install-deps: npm ci in tests/clients"
  npm ci --prefix "$clients" --no-audit --no-fund --loglevel=error >/dev/null
fi
# The explorer page's board (cm-chessboard, embedded into the binary at build time) and the
# driver of its browser test (puppeteer-core: it drives the Chromium above and downloads none),
# pinned by serve/web/package-lock.json; installed again when the lock is newer.
web="$(cd "$(dirname "$0")/.." && pwd)/serve/web"
if [[ ! "$web/node_modules/.package-lock.json" -nt "$web/package-lock.json" ]]; then
  echo "install-deps: npm ci in serve/web"
  PUPPETEER_SKIP_DOWNLOAD=1 npm ci --prefix "$web" --no-audit --no-fund --loglevel=error >/dev/null
fi
echo "install-deps: done"
