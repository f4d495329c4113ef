// Small text helpers shared by the book subcommands: keys as 16 hex digits, JSON strings.
#pragma once

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace bookforge::cli {

inline std::string hex_key(uint64_t key) {
  char text[17];
  std::snprintf(text, sizeof text, "%016" PRIx64, key);
  return text;
}

// A JSON string literal, quotes included.
inline std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

}  // namespace bookforge::cli
