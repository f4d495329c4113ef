#!/usr/bin/env bash
# Builds the unit-test suites in Debug with AddressSanitizer and UndefinedBehaviorSanitizer
# (BOOKFORGE_SANITIZE) and runs them: any memory error, leak or undefined behaviour fails the
# test that hit it. The end-to-end suite (label e2e) is left to scripts/test.sh's Release run:
# it drives the binary over large files, where a sanitized build would take most of CI's time.
# Usage: scripts/test-sanitizers.sh [build folder, default build-sanitize/]
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${1:-build-sanitize}"

launcher=()
if command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DBOOKFORGE_SANITIZE=ON \
  -DBOOKFORGE_BUILD_BENCH=OFF "${launcher[@]}" >/dev/null

# The unit suites are the <suite>_tests executables tests/CMakeLists.txt defines, but e2e_tests.
mapfile -t suites < <(ninja -C "$build_dir" -t targets all | sed -n 's/^\([a-z]*\)_tests: phony$/\1/p' |
  grep -vx e2e | sort -u)
if ((${#suites[@]} == 0)); then
  echo "test-sanitizers: no unit-test targets in $build_dir" >&2
  exit 1
fi
echo "test-sanitizers: building ${suites[*]/%/_tests}"
cmake --build "$build_dir" -j"$(nproc)" --target "${suites[@]/%/_tests}"

# Stack traces for undefined behaviour; global constructors checked for initialization order.
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export ASAN_OPTIONS="detect_leaks=1:check_initialization_order=1:strict_init_order=1"
label_regex="^($(IFS='|'; echo "${suites[*]}"))\$"
ctest --test-dir "$build_dir" -L "$label_regex" -LE '^e2e$' --output-on-failure -j"$(nproc)" --timeout 900
