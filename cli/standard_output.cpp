#include "cli/standard_output.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "cli/command.h"

namespace bookforge::cli {

bool write_standard_output(std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), stdout) == text.size() && std::fflush(stdout) == 0)
    return true;
  print_error(std::string("cannot write to standard output: ") + std::strerror(errno));
  return false;
}

}  // namespace bookforge::cli
