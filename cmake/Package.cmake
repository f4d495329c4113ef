# `cpack` (or the `package` target) in the build folder: a Debian package of the tool, the
# "runtime" install component (cli/CMakeLists.txt, cmake/Install.cmake):
#   /usr/bin/bookforge                                     (the explorer page is compiled in)
#   /usr/share/bookforge/openings.tsv                      (opening names, found beside the binary)
#   /usr/share/man/man1/bookforge.1.gz                     (`bookforge manual`)
#   /usr/share/bash-completion/completions/bookforge       (`bookforge completion bash`)
# The libraries and headers (the "development" component) stay with `cmake --install`.
#
# cpack packages what is built and builds nothing itself: by CMake's default it (and the
# `install` and `package` targets) would first build the whole tree, every test suite, for a
# package that holds one binary. Build the bookforge target first (that also writes the manual
# page and the completion), then run cpack. `cmake --install` never built anything anyway.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
set(CMAKE_SKIP_PACKAGE_ALL_DEPENDENCY ON)
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME bookforge)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# Only the runtime component, as one package named bookforge.
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
# The Description's long part: lines of at most 80 columns, as dpkg shows them.
string(JOIN "\n" CPACK_PACKAGE_DESCRIPTION
  "bookforge streams PGN game collections of any size (plain, gzip, bzip2, xz or"
  "zstd), keeps the games that pass its filters, counts every move played in every"
  "position, applies selection rules, can rescore the candidates with its own"
  "engine, and writes a Polyglot .bin opening book. It also probes, dumps and merges"
  "books, keeps a full-statistics tree in SQLite that a local web explorer serves,"
  "and plays from its book as a UCI engine.")
# -march=native (BOOKFORGE_NATIVE, the default) tunes the binary for the build machine's CPU: say
# so in the package, since a package is made to be installed elsewhere.
if(BOOKFORGE_NATIVE)
  string(APPEND CPACK_PACKAGE_DESCRIPTION "\n.\n"
    "This build is tuned for the CPU of the machine that built it (-march=native)\n"
    "and may not run on others: configure with -DBOOKFORGE_NATIVE=OFF for a package\n"
    "to give away.")
endif()

set(BOOKFORGE_PACKAGE_MAINTAINER "bookforge maintainers <maintainers@users.noreply.a-seed-d2d0b1f4.example>"
    CACHE STRING "The Debian package's Maintainer field: Name <email>")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${BOOKFORGE_PACKAGE_MAINTAINER}")
# Debian files the other chess tools (polyglot, pgn-extract, stockfish) under games.
set(CPACK_DEBIAN_PACKAGE_SECTION games)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Depends: read off the binary's shared libraries by dpkg-shlibdeps (package dpkg-dev).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The completion script is loaded on demand by bash-completion; without it, source it by hand.
# bookforge-dask (the cluster driver) needs Debian's Dask for /usr/bin/python3.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bash-completion, python3-distributed")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)

include(CPack)
