#!/usr/bin/env bash
# Installs the dependencies, builds bookforge with its tests and runs the whole suite.
# Tests that need ../shared/data skip when it is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
cd build
ctest --output-on-failure -j"$(nproc)" --timeout 900
