#include "pgn/tag_value.h"

#include <cstdint>

#include "pgn/chars.h"

namespace bookforge::pgn {

bool is_valid_utf8(std::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = p + text.size();
  while (p < end) {
    unsigned char c = *p;
    int extra = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xE ? 2 : (c >> 3) == 0x1E ? 3 : -1;
    if (extra < 0 || (extra == 1 && c < 0xC2) || end - p <= extra) return false;
    for (int i = 1; i <= extra; ++i)
      if ((p[i] & 0xC0) != 0x80) return false;
    p += extra + 1;
  }
  return true;
}

bool TagValue::decodes_to_raw() const {
  for (unsigned char c : raw_)
    if (c == '\\' || c >= 0x80) return false;
  return true;
}

std::string TagValue::decode() const {
  std::string text;
  text.reserve(raw_.size());
  for (size_t i = 0; i < raw_.size(); ++i) {
    if (raw_[i] == '\\' && i + 1 < raw_.size() && (raw_[i + 1] == '\\' || raw_[i + 1] == '"')) ++i;
    text.push_back(raw_[i]);
  }
  return is_valid_utf8(text) ? text : to_utf8(text);
}

std::string to_utf8(std::string_view text) {
  if (is_valid_utf8(text)) return std::string(text);
  std::string utf8;
  utf8.reserve(text.size() * 2);
  for (unsigned char c : text) {
    if (c < 0x80) {
      utf8.push_back(char(c));
    } else {
      utf8.push_back(char(0xC0 | (c >> 6)));
      utf8.push_back(char(0x80 | (c & 0x3F)));
    }
  }
  return utf8;
}

std::optional<int> TagValue::to_int() const {
  std::string_view s = raw_;
  while (!s.empty() && is_space(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && is_space(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  if (s.empty() || s.size() > 9) return std::nullopt;
  int value = 0;
  for (char c : s) {
    if (!is_digit(static_cast<unsigned char>(c))) return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

}  // namespace bookforge::pgn
