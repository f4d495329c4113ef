// Keys as the book subcommands print them: 16 lower-case hex digits. (JSON strings: see
// cli/read_report.h.)
#pragma once

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string>

namespace bookforge::cli {

inline std::string hex_key(uint64_t key) {
  char text[17];
  std::snprintf(text, sizeof text, "%016" PRIx64, key);
  return text;
}

}  // namespace bookforge::cli
