# bookforge_add_portable_copy(<target>): defines <target>_portable, the same static library
# built from the same sources with the same usage requirements, but without -march=native.
#
# Why a copy: the bookforge binary's hot code (PGN replay, move generation, the tally) lives in
# the libraries, so with BOOKFORGE_NATIVE the libraries themselves are tuned for this CPU, and
# the binary keeps that speed. Installed libraries, though, go to other machines: they must run
# on any x86-64, and must agree with the headers as an engine compiles them with default flags
# (the slider lookups in chess/attacks.h are inline and pick PEXT or magics from the compiler's
# target: a BMI2 library and a plain consumer disagree on every slider attack). The install
# therefore gets these copies; the build's own targets stay native.
#
# Call it after the target is complete (cmake/Install.cmake runs last): it copies the target's
# properties as they stand. Links to other bookforge libraries go to their portable copies.
function(bookforge_add_portable_copy target)
  set(copy ${target}_portable)
  get_target_property(source_dir ${target} SOURCE_DIR)
  get_target_property(sources ${target} SOURCES)
  set(absolute_sources)
  foreach(source IN LISTS sources)
    cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY ${source_dir})
    list(APPEND absolute_sources ${source})
  endforeach()
  add_library(${copy} STATIC ${absolute_sources})

  foreach(property INCLUDE_DIRECTORIES INTERFACE_INCLUDE_DIRECTORIES COMPILE_DEFINITIONS
                   INTERFACE_COMPILE_DEFINITIONS COMPILE_FEATURES INTERFACE_COMPILE_FEATURES
                   INTERFACE_COMPILE_OPTIONS POSITION_INDEPENDENT_CODE)
    get_target_property(value ${target} ${property})
    if(NOT value STREQUAL "value-NOTFOUND")
      set_property(TARGET ${copy} PROPERTY ${property} "${value}")
    endif()
  endforeach()

  get_target_property(options ${target} COMPILE_OPTIONS)
  list(REMOVE_ITEM options ${BOOKFORGE_NATIVE_FLAG})
  set_property(TARGET ${copy} PROPERTY COMPILE_OPTIONS "${options}")

  foreach(property LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
    get_target_property(libraries ${target} ${property})
    if(NOT libraries STREQUAL "libraries-NOTFOUND")
      list(TRANSFORM libraries REPLACE "^(bookforge_[a-z]+)$" "\\1_portable")
      set_property(TARGET ${copy} PROPERTY ${property} "${libraries}")
    endif()
  endforeach()

  # Same file name once installed; built into a folder of its own here.
  get_target_property(output_name ${target} OUTPUT_NAME)
  if(output_name STREQUAL "output_name-NOTFOUND")
    set(output_name ${target})
  endif()
  set_target_properties(${copy} PROPERTIES OUTPUT_NAME ${output_name}
    ARCHIVE_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/portable)
endfunction()
