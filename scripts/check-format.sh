#!/usr/bin/env bash
# Checks every tracked C++ file against the repository's .clang-format without changing it;
# prints the files that would be reformatted and exits 1 if there are any. The style is pinned
# to the clang-format that scripts/install-deps.sh installs (Debian's, 14): other versions
# format some constructs differently. Fix a failing file with `clang-format -i <file>`.
set -euo pipefail
cd "$(dirname "$0")/.."
clang_format="${CLANG_FORMAT:-clang-format}"

failing=()
while IFS= read -r file; do
  if ! "$clang_format" --dry-run -Werror "$file" >/dev/null 2>&1; then failing+=("$file"); fi
done < <(git ls-files '*.cpp' '*.h')

if ((${#failing[@]} > 0)); then
  echo "check-format: ${#failing[@]} file(s) differ from .clang-format ($("$clang_format" --version)):"
  printf '  %s\n' "${failing[@]}"
  exit 1
fi
echo "check-format: all tracked C++ files match .clang-format"
