#include "cli/standard_output.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "cli/command.h"

namespace bookforge::cli {

Status put_standard_output(std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), stdout) == text.size() && std::fflush(stdout) == 0)
    return ok_status();
  return Error{std::string("cannot write to standard output: ") + std::strerror(errno)};
}

bool write_standard_output(std::string_view text) {
  Status s = put_standard_output(text);
  if (!s.ok()) print_error(s.error().message);
  return s.ok();
}

}  // namespace bookforge::cli
