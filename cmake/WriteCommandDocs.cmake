# cmake -P script run after every link of the bookforge binary (cli/CMakeLists.txt): asks the
# binary for its manual page and its bash completion script, both written from the command
# definitions, and stores them where they are installed from:
#   MAN_PAGE    <- `bookforge manual`, compressed with gzip -9n (no name or time stamp: the
#                  same binary gives the same file)
#   COMPLETION  <- `bookforge completion bash`
# Variables: PROGRAM (the binary), MAN_PAGE, COMPLETION, GZIP (the gzip program).
function(write_output output)
  cmake_path(GET output PARENT_PATH folder)
  file(MAKE_DIRECTORY ${folder})
  execute_process(COMMAND ${PROGRAM} ${ARGN} OUTPUT_FILE ${output} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    file(REMOVE ${output})
    message(FATAL_ERROR "`${PROGRAM} ${ARGN}` failed (${rc}): ${err}")
  endif()
endfunction()

set(page ${MAN_PAGE}.roff)
write_output(${page} manual)
execute_process(COMMAND ${GZIP} -9nc ${page} OUTPUT_FILE ${MAN_PAGE} RESULT_VARIABLE rc)
file(REMOVE ${page})
if(NOT rc EQUAL 0)
  file(REMOVE ${MAN_PAGE})
  message(FATAL_ERROR "gzip ${page} failed (${rc})")
endif()

write_output(${COMPLETION} completion bash)
