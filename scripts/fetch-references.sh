#!/usr/bin/env bash
# The public tools bookforge is compared with and judged by, that Debian does not package:
# fetched at pinned commits, built, and never part of bookforge (their code is not copied here).
#
#   fastpopular   vondele/fastpopular: the count stage's per-core rate (bench/cluster.sh)
#   python-chess  niklasf/python-chess: an outside reader of Chess960 games, keys and books
#                 (tests/e2e/chess960_independent_count.py), pure Python, nothing to build
#   fastchess     Disservin/fastchess: the match runner that plays `bookforge uci` in games with
#                 an SPRT (bench/engine_match.sh); its Makefile needs only g++ and make, its
#                 third-party code is in its tree
#
# usage: scripts/fetch-references.sh [DIR]      (default: ../references beside the repository)
#
# Each is cloned from GitHub, or from $BOOKFORGE_REFERENCE_MIRROR/OWNER+NAME/repo when that is
# set (a folder of clones, for a machine without access to GitHub). At the end the script prints
# the variables the benches and checks read.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(realpath -m "${1:-../references}")
mkdir -p "$dir"

# name  owner/repository  commit
refs=(
  "fastpopular vondele/fastpopular c0e54031b02592022ed6d9583fe0988517d8bcd2"
  "python-chess niklasf/python-chess 9c24454dcea4f8a30259d811a2f10b26e911deb4"
  "fastchess Disservin/fastchess 74deac23aadc6718fa0f8e24ac95d16392d79444"
)

fetch() { # name owner/repo commit
  local name=$1 repo=$2 commit=$3 source
  if [[ -n ${BOOKFORGE_REFERENCE_MIRROR:-} ]]; then
    source="$BOOKFORGE_REFERENCE_MIRROR/${repo/\//+}/repo"
  else
    source="https://github.com/$repo"
  fi
  if [[ ! -d $dir/$name/.git ]]; then
    echo "fetch-references: $name from $source" >&2
    git clone --quiet "$source" "$dir/$name"
  fi
  if ! git -C "$dir/$name" cat-file -e "$commit^{commit}" 2>/dev/null; then
    git -C "$dir/$name" fetch --quiet origin
  fi
  git -C "$dir/$name" -c advice.detachedHead=false checkout --quiet "$commit"
}

for r in "${refs[@]}"; do
  read -r name repo commit <<< "$r"
  fetch "$name" "$repo" "$commit"
done

# fastpopular needs zlib and zstd (Debian's, installed by scripts/install-deps.sh).
if [[ ! -x $dir/fastpopular/fastpopular ]]; then
  echo "fetch-references: building fastpopular" >&2
  make -C "$dir/fastpopular" --quiet > "$dir/fastpopular/build.log" 2>&1 ||
    { cat "$dir/fastpopular/build.log" >&2; exit 1; }
fi

# fastchess: its own Makefile, native code for this machine (the binary stays here).
if [[ ! -x $dir/fastchess/fastchess ]]; then
  echo "fetch-references: building fastchess" >&2
  make -C "$dir/fastchess" -j"$(nproc)" > "$dir/fastchess/build.log" 2>&1 ||
    { cat "$dir/fastchess/build.log" >&2; exit 1; }
fi

cd /tmp
PYTHONPATH="$dir/python-chess" /usr/bin/python3 -c 'import chess.polyglot' ||
  { echo "fetch-references: python-chess does not import with /usr/bin/python3" >&2; exit 1; }

echo "FASTPOPULAR=$dir/fastpopular/fastpopular"
echo "BOOKFORGE_PYTHON_CHESS=$dir/python-chess"
echo "FASTCHESS=$dir/fastchess/fastchess"
