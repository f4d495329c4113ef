// The two ways a message reaches the terminal (cli/command.h), in the library rather than in
// main.cpp, so that the option code and its unit tests link without the executable.
#include <cstdio>
#include <string_view>

#include "cli/command.h"

namespace bookforge::cli {

void print_error(std::string_view message) {
  std::fprintf(stderr, "bookforge: error: %.*s\n", int(message.size()), message.data());
}

void print_warning(std::string_view message) {
  std::fprintf(stderr, "bookforge: warning: %.*s\n", int(message.size()), message.data());
}

}  // namespace bookforge::cli
