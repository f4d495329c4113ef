// Tag pairs as they appear in real files: "[Name "value"]", several per line, with escaped or
// unescaped quotes and brackets inside values. One scanner serves the game splitter (which
// only needs to know where tags end) and the lexer (which hands names and values on), so the
// two always agree.
#pragma once

#include <cstddef>
#include <string_view>

#include "pgn/byte_set.h"
#include "pgn/chars.h"

namespace bookforge::pgn {

enum class Tri : unsigned char { kNo, kYes, kNeedMore };

// Bytes that end a tag name: spaces, quotes and brackets.
inline constexpr ByteSet kTagNameEnds = make_byte_set(std::string_view(" \t\v\f\0\n\r\"[]", 10));
// Bytes a quoted value stops at to take a closer look.
inline constexpr ByteSet kTagValueStops = make_byte_set("\\\"\n\r");

inline const char* skip_blanks(const char* p, const char* end) {
  while (p < end && is_blank(static_cast<unsigned char>(*p))) ++p;
  return p;
}

// Is `p` (pointing at '[') the start of a tag: '[', optional blanks, then a letter, digit or
// '_'? "[%clk ...]", "[#]" and "[/pgn]" are not. kNeedMore when `end` cuts the answer short and
// more bytes may follow (`final` says none will).
inline Tri is_tag_start(const char* p, const char* end, bool final) {
  const char* q = skip_blanks(p + 1, end);
  if (q == end) return final ? Tri::kNo : Tri::kNeedMore;
  const auto c = static_cast<unsigned char>(*q);
  return is_alpha(c) || is_digit(c) || c == '_' ? Tri::kYes : Tri::kNo;
}

struct ScannedTag {
  std::string_view name;
  std::string_view raw_value;  // between the quotes, escapes untouched
  const char* next = nullptr;  // just after the closing ']' (or the line break of a broken tag)
  bool complete = true;        // false: `end` came first and more bytes could change the answer
};

// Scans the tag at `p` ('[' at a tag start) up to the first line break: a value never runs past
// its line. With `final`, `end` counts as a line break. Never fails: a broken tag still yields
// a best-effort name and value.
//
// Value rules, in order: a backslash escapes the next byte; a '"' followed by blanks and ']'
// closes the value; any other '"' is part of the value ("Club "Victory""). When the line ends
// first, the value ends at the last '"' that is followed by blanks and ']' (so a trailing
// backslash as in "Tournament \" is kept), or else runs to the line end.
ScannedTag scan_tag(const char* p, const char* end, bool final);

}  // namespace bookforge::pgn
