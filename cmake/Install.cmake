# `cmake --install`: the bookforge executable (cli/CMakeLists.txt), the static libraries, the
# headers an engine needs to probe a book, the opening-name table, and a CMake package so that
#
#   find_package(bookforge REQUIRED)
#   target_link_libraries(my_engine PRIVATE bookforge::book)
#
# gives `#include "book/polyglot_reader.h"` and friends (tests/consumer/ is such a project).
# Exported targets: bookforge::engine (chess core), bookforge::pgn (PGN reading),
# bookforge::book (books; depends on the other two).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(BOOKFORGE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/bookforge)

set_target_properties(bookforge_engine PROPERTIES EXPORT_NAME engine)
set_target_properties(bookforge_pgn PROPERTIES EXPORT_NAME pgn)
set_target_properties(bookforge_book PROPERTIES EXPORT_NAME book)

install(TARGETS bookforge_engine bookforge_pgn bookforge_book
  EXPORT bookforgeTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})

# Headers, under include/bookforge/ with the same relative paths as in the source tree (the
# targets' INSTALL_INTERFACE include directory). The engine headers are all installed: the
# book headers include several of them.
file(GLOB BOOKFORGE_ENGINE_HEADERS ${PROJECT_SOURCE_DIR}/engine/*.h)
install(FILES ${BOOKFORGE_ENGINE_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/bookforge/engine)
install(FILES
    ${PROJECT_SOURCE_DIR}/book/polyglot.h
    ${PROJECT_SOURCE_DIR}/book/polyglot_reader.h
    ${PROJECT_SOURCE_DIR}/book/polyglot_writer.h
    ${PROJECT_SOURCE_DIR}/book/book_probe.h
    ${PROJECT_SOURCE_DIR}/book/opening_names.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/bookforge/book)

# The opening names probe shows; found beside the installed binary (book/opening_names.h).
install(FILES ${PROJECT_SOURCE_DIR}/data-samples/openings.tsv DESTINATION ${CMAKE_INSTALL_DATADIR}/bookforge)

install(EXPORT bookforgeTargets NAMESPACE bookforge:: DESTINATION ${BOOKFORGE_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/bookforgeConfig.cmake.in
  ${PROJECT_BINARY_DIR}/bookforgeConfig.cmake
  INSTALL_DESTINATION ${BOOKFORGE_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/bookforgeConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/bookforgeConfig.cmake ${PROJECT_BINARY_DIR}/bookforgeConfigVersion.cmake
  DESTINATION ${BOOKFORGE_CMAKE_DIR})

# The consumer test: install into a temporary prefix, build tests/consumer against it, probe.
if(BOOKFORGE_BUILD_TESTS)
  add_test(NAME install_consumer
    COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${PROJECT_BINARY_DIR} -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
            -DWORK_DIR=${PROJECT_BINARY_DIR}/tests/consumer-work -DGENERATOR=${CMAKE_GENERATOR}
            -P ${PROJECT_SOURCE_DIR}/tests/consumer/run_consumer_test.cmake)
  set_tests_properties(install_consumer PROPERTIES LABELS "book;e2e" TIMEOUT 300)
endif()
