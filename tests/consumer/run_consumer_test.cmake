# ctest install_consumer: installs bookforge into a fresh prefix, builds tests/consumer against
# it with find_package(bookforge), builds a book with the installed binary and probes it with
# the consumer. Variables: BUILD_DIR, SOURCE_DIR, WORK_DIR, GENERATOR.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
foreach(f include/bookforge/book/polyglot_reader.h include/bookforge/engine/board.h
          lib/cmake/bookforge/bookforgeConfig.cmake share/bookforge/openings.tsv bin/bookforge)
  if(NOT EXISTS ${WORK_DIR}/prefix/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()

run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)

run(${WORK_DIR}/prefix/bin/bookforge build -q ${SOURCE_DIR}/data-samples/twic0920-2000.pgn -o ${WORK_DIR}/book.bin)
run(${WORK_DIR}/build/probe_book ${WORK_DIR}/book.bin)
if(NOT last_output MATCHES "^e2e4 [0-9]+\nd2d4 [0-9]+\n")
  message(FATAL_ERROR "unexpected probe output:\n${last_output}")
endif()
run(${WORK_DIR}/build/probe_book ${WORK_DIR}/book.bin e2e4 c7c5)
if(NOT last_output MATCHES "g1f3 [0-9]+")
  message(FATAL_ERROR "unexpected probe output after 1. e4 c5:\n${last_output}")
endif()
# The installed binary finds the installed opening names.
run(${WORK_DIR}/prefix/bin/bookforge probe ${WORK_DIR}/book.bin --moves e4)
if(NOT last_output MATCHES "King's Pawn Game")
  message(FATAL_ERROR "the installed probe shows no opening names:\n${last_output}")
endif()
file(REMOVE_RECURSE ${WORK_DIR})
message(STATUS "consumer built against the installed bookforge and probed a book")
