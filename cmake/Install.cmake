# `cmake --install`: the bookforge executable (cli/CMakeLists.txt), the static libraries, the
# headers an engine needs to probe a book, the opening-name table, and a CMake package so that
#
#   find_package(bookforge REQUIRED COMPONENTS polyglot)
#   target_link_libraries(my_engine PRIVATE bookforge::polyglot)
#
# gives `#include "book/polyglot/reader.h"` and friends (tests/consumer/ is such a project).
# Exported targets, in two components:
#   polyglot: bookforge::base, bookforge::chess (the rules), bookforge::polyglot (the book
#             reader); they need nothing but threads, and hold no search.
#   book:     bookforge::engine (the searcher), bookforge::pgn (PGN reading), bookforge::counts,
#             bookforge::store, bookforge::book (building books); they bring Boost.Iostreams,
#             zlib, zstd and SQLite.
# find_package(bookforge) without COMPONENTS loads both.
# Install components: "development" (the libraries, headers and CMake package) and "runtime"
# (the tool: the binary, its manual page and completion from cli/CMakeLists.txt, the opening
# names; what the Debian package holds, cmake/Package.cmake). `cmake --install` installs both.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
include(${CMAKE_CURRENT_LIST_DIR}/PortableLibrary.cmake)

set(BOOKFORGE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/bookforge)

# Installed libraries are portable: with BOOKFORGE_NATIVE the build's own libraries are tuned
# for this CPU (they carry the binary's hot code), so portable copies are built for the install
# (cmake/PortableLibrary.cmake says why). BOOKFORGE_INSTALL_NATIVE installs the tuned ones.
set(BOOKFORGE_READER_LIBRARIES base chess polyglot)
set(BOOKFORGE_BUILDER_LIBRARIES engine pgn counts store book)
foreach(library IN LISTS BOOKFORGE_READER_LIBRARIES BOOKFORGE_BUILDER_LIBRARIES)
  if(BOOKFORGE_NATIVE AND NOT BOOKFORGE_INSTALL_NATIVE)
    bookforge_add_portable_copy(bookforge_${library})
    set(installed_target bookforge_${library}_portable)
    if(library STREQUAL "chess")
      # The slider lookups are inline (chess/attacks.h): an engine compiled with BMI2 must
      # still index the tables the way this library filled them.
      target_compile_definitions(${installed_target} PUBLIC BOOKFORGE_PEXT=0)
    endif()
  else()
    set(installed_target bookforge_${library})
  endif()
  set_target_properties(${installed_target} PROPERTIES EXPORT_NAME ${library})
  if(library IN_LIST BOOKFORGE_READER_LIBRARIES)
    list(APPEND BOOKFORGE_INSTALLED_READER ${installed_target})
  else()
    list(APPEND BOOKFORGE_INSTALLED_BUILDER ${installed_target})
  endif()
endforeach()

install(TARGETS ${BOOKFORGE_INSTALLED_READER} EXPORT bookforgePolyglotTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
install(TARGETS ${BOOKFORGE_INSTALLED_BUILDER} EXPORT bookforgeBookTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)

# Headers, under include/bookforge/ with the same relative paths as in the source tree (the
# targets' INSTALL_INTERFACE include directory). The rules' headers are all installed: the
# book headers include several of them.
foreach(folder base chess)
  file(GLOB headers ${PROJECT_SOURCE_DIR}/${folder}/*.h)
  install(FILES ${headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/bookforge/${folder} COMPONENT development)
endforeach()
install(FILES
    ${PROJECT_SOURCE_DIR}/book/polyglot/format.h
    ${PROJECT_SOURCE_DIR}/book/polyglot/reader.h
    ${PROJECT_SOURCE_DIR}/book/polyglot/writer.h
    ${PROJECT_SOURCE_DIR}/book/polyglot/probe.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/bookforge/book/polyglot COMPONENT development)
# The writer's output file (written whole under a temporary name, then put in place) and the
# opening names probe shows.
install(FILES
    ${PROJECT_SOURCE_DIR}/book/opening_names.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/bookforge/book COMPONENT development)

# The opening names probe shows; found beside the installed binary (book/opening_names.h).
install(FILES ${PROJECT_SOURCE_DIR}/data-samples/openings.tsv DESTINATION ${CMAKE_INSTALL_DATADIR}/bookforge
  COMPONENT runtime)

install(EXPORT bookforgePolyglotTargets NAMESPACE bookforge:: DESTINATION ${BOOKFORGE_CMAKE_DIR}
  COMPONENT development)
install(EXPORT bookforgeBookTargets NAMESPACE bookforge:: DESTINATION ${BOOKFORGE_CMAKE_DIR}
  COMPONENT development)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/bookforgeConfig.cmake.in
  ${PROJECT_BINARY_DIR}/bookforgeConfig.cmake
  INSTALL_DESTINATION ${BOOKFORGE_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/bookforgeConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/bookforgeConfig.cmake ${PROJECT_BINARY_DIR}/bookforgeConfigVersion.cmake
  DESTINATION ${BOOKFORGE_CMAKE_DIR} COMPONENT development)

# The consumer test: install into a temporary prefix, check the package, build tests/consumer
# against it with a plain cmake call (the user's default generator and flags), probe.
if(BOOKFORGE_BUILD_TESTS)
  add_test(NAME install_consumer
    COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${PROJECT_BINARY_DIR} -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
            -DWORK_DIR=${PROJECT_BINARY_DIR}/tests/consumer-work
            -DINSTALLED_NATIVE=$<AND:$<BOOL:${BOOKFORGE_NATIVE}>,$<BOOL:${BOOKFORGE_INSTALL_NATIVE}>>
            -P ${PROJECT_SOURCE_DIR}/tests/consumer/run_consumer_test.cmake)
  set_tests_properties(install_consumer PROPERTIES LABELS "book;e2e" TIMEOUT 300)
endif()
