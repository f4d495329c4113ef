#include "pgn/wide_text.h"

#include <iterator>

namespace bookforge::pgn {

namespace {

// Without a BOM, a guess from fewer code units than this is too weak to refuse an input on.
constexpr size_t kMinUnits = 4;

bool starts_with(std::string_view head, std::string_view prefix) {
  return head.substr(0, prefix.size()) == prefix;
}

bool is_ascii_text(unsigned char c) { return c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c < 0x7f); }

// The code units of `width` bytes whose byte `text_at` is ASCII text and whose other bytes are
// NUL: ASCII characters in that encoding.
size_t ascii_units(std::string_view head, size_t width, size_t text_at) {
  size_t count = 0;
  for (size_t unit = 0; unit + width <= head.size(); unit += width) {
    bool ascii = is_ascii_text(static_cast<unsigned char>(head[unit + text_at]));
    for (size_t b = 0; b < width && ascii; ++b) ascii = b == text_at || head[unit + b] == '\0';
    count += ascii;
  }
  return count;
}

bool mostly_ascii_units(std::string_view head, size_t width, size_t text_at) {
  const size_t units = head.size() / width;
  return units >= kMinUnits && 2 * ascii_units(head, width, text_at) > units;
}

// Indexed by WideText.
struct Names {
  std::string_view name;
  std::string_view iconv;
};
constexpr Names kNames[] = {{"byte text", "UTF-8"},
                            {"UTF-16 (little-endian)", "UTF-16LE"},
                            {"UTF-16 (big-endian)", "UTF-16BE"},
                            {"UTF-32 (little-endian)", "UTF-32LE"},
                            {"UTF-32 (big-endian)", "UTF-32BE"}};
static_assert(std::size(kNames) == static_cast<size_t>(WideText::kUtf32Be) + 1);

}  // namespace

WideText detect_wide_text(std::string_view head) {
  head = head.substr(0, kWideTextProbe);
  // UTF-32LE's BOM starts like UTF-16LE's, so the longer ones are tried first.
  if (starts_with(head, std::string_view("\xff\xfe\0\0", 4))) return WideText::kUtf32Le;
  if (starts_with(head, std::string_view("\0\0\xfe\xff", 4))) return WideText::kUtf32Be;
  if (starts_with(head, "\xff\xfe")) return WideText::kUtf16Le;
  if (starts_with(head, "\xfe\xff")) return WideText::kUtf16Be;
  // An ASCII character in UTF-32 is half ASCII units in UTF-16 terms (its character, then NULs),
  // never more than half: UTF-32 text cannot pass for UTF-16, and is tried first all the same.
  if (mostly_ascii_units(head, 4, 0)) return WideText::kUtf32Le;
  if (mostly_ascii_units(head, 4, 3)) return WideText::kUtf32Be;
  if (mostly_ascii_units(head, 2, 0)) return WideText::kUtf16Le;
  if (mostly_ascii_units(head, 2, 1)) return WideText::kUtf16Be;
  return WideText::kNone;
}

std::string_view wide_text_name(WideText encoding) { return kNames[static_cast<size_t>(encoding)].name; }

std::string_view wide_text_iconv_name(WideText encoding) {
  return kNames[static_cast<size_t>(encoding)].iconv;
}

}  // namespace bookforge::pgn
