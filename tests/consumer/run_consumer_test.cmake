# ctest install_consumer: installs bookforge into a fresh prefix and checks the package as an
# engine author meets it:
#   - the installed CMake files name no path of this machine (source or build tree, library
#     files): the package must work wherever the prefix is copied;
#   - the installed libraries are portable (no instruction beyond baseline x86-64);
#   - tests/consumer configures with a plain `cmake -S -B -DCMAKE_PREFIX_PATH=` (no generator,
#     build type or C++ standard given: C++20 comes from the package) and links only
#     bookforge::polyglot, which brings neither Boost, zlib, zstd nor SQLite;
#   - the consumer's inline attack lookups agree with the library, and it probes a book built
#     by the installed binary.
# Variables: BUILD_DIR, SOURCE_DIR, WORK_DIR; INSTALLED_NATIVE when bookforge was configured to
# install its -march=native libraries (then the consumer is built with -march=native as well,
# as the README asks, and the portability check is skipped).
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(f include/bookforge/book/polyglot/reader.h include/bookforge/chess/board.h
          lib/cmake/bookforge/bookforgeConfig.cmake lib/libbookforge_polyglot.a
          share/bookforge/openings.tsv bin/bookforge)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()

# 1. No path of the build machine in the package: neither the source or build folder (include
# directories) nor a library file by its absolute path (dependencies are imported targets that
# the config file finds with find_dependency).
file(GLOB package_files ${prefix}/lib/cmake/bookforge/*.cmake)
get_filename_component(real_source_dir ${SOURCE_DIR} REALPATH)
get_filename_component(real_build_dir ${BUILD_DIR} REALPATH)
foreach(file IN LISTS package_files)
  file(READ ${file} text)
  foreach(dir ${SOURCE_DIR} ${BUILD_DIR} ${real_source_dir} ${real_build_dir})
    string(FIND "${text}" "${dir}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${file} names the build machine's folder ${dir}")
    endif()
  endforeach()
  if(text MATCHES "[\";( :](/[^\";) \n>]+\\.(so|a)(\\.[0-9.]+)?)[\";) >\n]")
    message(FATAL_ERROR "${file} names a library by its absolute path: ${CMAKE_MATCH_1}")
  endif()
endforeach()

# Nor compiled into the libraries (a path taken from __FILE__, say).
file(GLOB installed_archives ${prefix}/lib/*.a)
foreach(archive IN LISTS installed_archives)
  foreach(dir ${real_source_dir} ${real_build_dir})
    file(STRINGS ${archive} named REGEX "${dir}/" LIMIT_COUNT 1)
    if(named)
      message(FATAL_ERROR "${archive} holds the build machine's folder ${dir}: ${named}")
    endif()
  endforeach()
endforeach()

# 2. The installed libraries run on any x86-64: no BMI2, POPCNT or AVX instruction (what
# -march=native adds on the machines this project is built on).
find_program(OBJDUMP objdump)
find_program(GREP grep)
if(OBJDUMP AND GREP AND NOT INSTALLED_NATIVE)
  file(GLOB archives ${prefix}/lib/libbookforge_*.a)
  foreach(archive IN LISTS archives)
    execute_process(COMMAND ${OBJDUMP} -d --no-show-raw-insn ${archive}
                    COMMAND ${GREP} -m1 -E "\\s(pext|pdep|popcnt|shlx|shrx|sarx|vp[a-z0-9]+|vmov[a-z]*)\\s"
                    OUTPUT_VARIABLE instruction)
    if(instruction)
      message(FATAL_ERROR "${archive} is not portable: ${instruction}")
    endif()
  endforeach()
endif()

# 3. A plain configure and build, as an engine author would type them.
set(consumer_flags)
if(INSTALLED_NATIVE)
  set(consumer_flags -DCMAKE_CXX_FLAGS=-march=native)
endif()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer -B ${WORK_DIR}/build -DCMAKE_PREFIX_PATH=${prefix} ${consumer_flags})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)

# 4. Reading a book drags in nothing of the builder's dependencies: not looked for at configure
# time, not on the link line, not loaded at run time.
file(STRINGS ${WORK_DIR}/build/CMakeCache.txt found_dependencies REGEX "^(Boost|ZLIB|zstd|SQLite3)_")
if(found_dependencies)
  message(FATAL_ERROR "configuring a polyglot-only consumer looked for: ${found_dependencies}")
endif()
file(GLOB_RECURSE link_files ${WORK_DIR}/build/build.ninja ${WORK_DIR}/build/link.txt)
foreach(file IN LISTS link_files)
  file(READ ${file} text)
  if(text MATCHES "[^\n]*(boost|libz|zstd|sqlite)[^\n]*")
    message(FATAL_ERROR "the consumer's link line names a builder dependency (${file}):\n${CMAKE_MATCH_0}")
  endif()
endforeach()
find_program(LDD ldd)
find_program(NM nm REQUIRED)
file(READ ${prefix}/lib/cmake/bookforge/bookforgePolyglotTargets.cmake reader_targets)
if(reader_targets MATCHES "bookforge::(engine|pgn|counts|store|book)[^a-z_]")
  message(FATAL_ERROR "the reader package links ${CMAKE_MATCH_0}: it must need the rules of chess only")
endif()
foreach(program probe_book check_attacks)
  if(NOT EXISTS ${WORK_DIR}/build/${program})
    message(FATAL_ERROR "the consumer's ${program} was not built in ${WORK_DIR}/build")
  endif()
  if(LDD)
    run(${LDD} ${WORK_DIR}/build/${program})
    if(last_output MATCHES "[^\n]*(boost|libz\\.|zstd|sqlite)[^\n]*")
      message(FATAL_ERROR "${program} loads a builder dependency: ${CMAKE_MATCH_0}")
    endif()
  endif()
  # The reader is the rules of chess and the book format: no search, no UCI client in it.
  run(${NM} -C ${WORK_DIR}/build/${program})
  if(NOT last_output MATCHES "bookforge::chess::")
    message(FATAL_ERROR "${program} holds no symbol of bookforge::chess: is nm reading it?")
  endif()
  if(last_output MATCHES "[^\n]*bookforge::engine::[^\n]*")
    message(FATAL_ERROR "${program} pulls in the searcher: ${CMAKE_MATCH_0}")
  endif()
endforeach()

# 5. The consumer's view of the library.
run(${WORK_DIR}/build/check_attacks)
# An engine tuned for its own CPU (BMI2 and all) still agrees with the portable library on
# every slider attack: the indexing is the library's usage requirement, not the consumer's flags.
if(NOT INSTALLED_NATIVE)
  run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer -B ${WORK_DIR}/build-native
      -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_FLAGS=-march=native)
  run(${CMAKE_COMMAND} --build ${WORK_DIR}/build-native --target check_attacks)
  run(${WORK_DIR}/build-native/check_attacks)
endif()
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
