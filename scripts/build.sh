#!/usr/bin/env bash
# Configures and builds bookforge (Release) into build/.
#   bash scripts/build.sh [TARGET...] [-DNAME=VALUE...]
# Words starting with "-" go to cmake's configure; the others are the targets to build (default:
# everything, the test suites and benchmarks included; `bookforge` alone is the tool).
set -euo pipefail
cd "$(dirname "$0")/.."
configure=()
targets=()
for argument in "$@"; do
  if [[ $argument == -* ]]; then configure+=("$argument"); else targets+=("$argument"); fi
done
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
if [[ ! -f build/CMakeCache.txt ]]; then
  cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "${configure[@]}"
elif ((${#configure[@]})); then
  cmake -S . -B build "${configure[@]}"
fi
target_flags=()
if ((${#targets[@]})); then target_flags=(--target "${targets[@]}"); fi
cmake --build build "${target_flags[@]}" -j"$(nproc)"
