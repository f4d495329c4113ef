// Reading the fields of a line of text that bookforge wrote itself (plans, verdicts, framing
// lines): words, whole numbers and 64-bit hex values, each taken only when it is exactly that.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string_view>
#include <system_error>
#include <vector>

namespace bookforge {

// The words of `text` between runs of `separator`.
inline std::vector<std::string_view> split_fields(std::string_view text, char separator = ' ') {
  std::vector<std::string_view> words;
  for (size_t at = 0; at <= text.size();) {
    const size_t end = std::min(text.find(separator, at), text.size());
    if (end > at) words.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return words;
}

// A whole number in base 10 (or `base`), the whole of `text`.
template <class T>
bool parse_whole(std::string_view text, T& value, int base = 10) {
  const char* end = text.data() + text.size();
  auto [last, ec] = std::from_chars(text.data(), end, value, base);
  return !text.empty() && ec == std::errc() && last == end;
}

// 16 hex digits, as hex64 (base/hex.h) writes them.
inline bool parse_hex64(std::string_view text, uint64_t& value) {
  return text.size() == 16 && parse_whole(text, value, 16);
}

}  // namespace bookforge
