#!/usr/bin/env bash
# ctest package.deb: makes the Debian package with cpack from this build (cmake/Package.cmake),
# unpacks it into an empty folder with `dpkg -x` (no root, nothing touches the system) and uses
# the tool from there as an installed one: --version, a book built from data-samples/, the
# opening names found in the package's share/bookforge, the manual page through man(1), the
# completion script in place. Also checks the control fields and that the package holds the
# tool alone (the libraries and headers stay with `cmake --install`).
# Environment: BUILD_DIR, SOURCE_DIR, WORK_DIR, CPACK (the cpack program), VERSION.
# Exits 77 (skipped) without dpkg, dpkg-shlibdeps or cpack.
set -euo pipefail

for tool in dpkg dpkg-deb dpkg-shlibdeps; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIP: no $tool (Debian's dpkg and dpkg-dev)"
    exit 77
  fi
done
if [[ ! -x $CPACK ]]; then
  echo "SKIP: no cpack at $CPACK"
  exit 77
fi

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

rm -rf "$WORK_DIR"
mkdir -p "$WORK_DIR/root"
cd "$WORK_DIR"
"$CPACK" -G DEB --config "$BUILD_DIR/CPackConfig.cmake" -B "$WORK_DIR/out" >cpack.log 2>&1 ||
  fail "cpack: $(cat cpack.log)"
debs=(out/*.deb)
[[ ${#debs[@]} == 1 && -f ${debs[0]} ]] || fail "cpack made ${debs[*]}, not one .deb"
deb=${debs[0]}
echo "package: $deb"
dpkg-deb -I "$deb"
dpkg -c "$deb"

# Control fields: version from the project, Depends from the binary's shared libraries.
field() { dpkg-deb -f "$deb" "$1"; }
[[ $(field Package) == bookforge ]] || fail "Package: $(field Package)"
[[ $(field Version) == "$VERSION" ]] || fail "Version: $(field Version), project $VERSION"
[[ $(field Section) == games ]] || fail "Section: $(field Section)"
[[ $(field Maintainer) == *'<'*@*'>' ]] || fail "Maintainer: $(field Maintainer)"
for library in libc6 libstdc++6 libsqlite3-0 libzstd1 zlib1g libboost-iostreams; do
  [[ $(field Depends) == *"$library"* ]] || fail "Depends lacks $library: $(field Depends)"
done
[[ $(field Description) == *Polyglot* ]] || fail "no long description: $(field Description)"

# The tool alone: no static library, header or CMake file.
if dpkg -c "$deb" | grep -E '\.(a|h|cmake)$'; then fail "development files in the package"; fi

dpkg -x "$deb" root
bin=root/usr/bin/bookforge
[[ -x $bin ]] || fail "no usr/bin/bookforge"

version=$("$bin" --version)
[[ $version == "$VERSION" ]] || fail "bookforge --version says '$version', project $VERSION"

# Run from the work folder, away from the source tree: the opening names must come from the
# package (usr/share/bookforge/openings.tsv beside usr/bin).
unset BOOKFORGE_OPENINGS
"$bin" build "$SOURCE_DIR/data-samples/twic0920-2000.pgn" -o book.bin --min-move-games 5 -q ||
  fail "bookforge build"
[[ -s book.bin ]] || fail "no book written"
"$bin" info book.bin
probe=$("$bin" probe book.bin --moves "e4 c5")
echo "$probe"
[[ $probe == *"Sicilian Defense"* ]] || fail "probe shows no opening name: the installed table was not found"

page=root/usr/share/man/man1/bookforge.1.gz
[[ -f $page ]] || fail "no usr/share/man/man1/bookforge.1.gz"
rendered=$(MANWIDTH=100 man --warnings -l "$page" 2>man-warnings.txt)
[[ ! -s man-warnings.txt ]] || fail "man warns: $(cat man-warnings.txt)"
[[ $rendered == *"bookforge build"* ]] || fail "the manual page has no section for bookforge build"

completion=root/usr/share/bash-completion/completions/bookforge
[[ -f $completion ]] || fail "no usr/share/bash-completion/completions/bookforge"
bash -n "$completion" || fail "the completion script does not parse"

# The cluster driver, installed beside the tool, finds its package in share/bookforge/cluster
# and builds the same book on a LocalCluster of one worker.
driver=root/usr/bin/bookforge-dask
[[ -x $driver ]] || fail "no usr/bin/bookforge-dask"
if /usr/bin/python3 -c "import distributed" 2>/dev/null; then
  [[ $("$driver" --version) == "bookforge-dask "* ]] || fail "bookforge-dask --version"
  "$driver" build "$SOURCE_DIR/data-samples/twic0920-2000.pgn" -o cluster.bin --min-move-games 5 \
    --local 1 --bookforge "$bin" --quiet || fail "bookforge-dask build"
  cmp book.bin cluster.bin || fail "bookforge-dask built another book than bookforge"
else
  echo "(no python3-distributed: bookforge-dask not run)"
fi
echo "PASS"
