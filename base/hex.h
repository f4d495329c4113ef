// A 64-bit value as bookforge prints it everywhere: 16 lower-case hex digits. Position keys
// (probe, dump, db explore, the server, messages, the opening-name table), content hashes of
// sources, game ids.
#pragma once

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string>

namespace bookforge {

inline std::string hex64(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016" PRIx64, value);
  return text;
}

}  // namespace bookforge
