// Tag pairs as they appear in real files: "[Name "value"]", several per line, with escaped or
// unescaped quotes and brackets inside values. One scanner serves the game splitter (which
// only needs to know where tags end) and the lexer (which hands names and values on), so the
// two always agree.
#pragma once

#include <cstddef>
#include <string_view>

namespace bookforge::pgn {

enum class Tri : unsigned char { kNo, kYes, kNeedMore };

// Is `p` (pointing at '[') the start of a tag: '[', optional blanks, then a letter, digit or
// '_'? "[%clk ...]", "[#]" and "[/pgn]" are not. kNeedMore when `end` cuts the answer short and
// more bytes may follow (`final` says none will).
Tri is_tag_start(const char* p, const char* end, bool final);

struct ScannedTag {
  std::string_view name;
  std::string_view raw_value;  // between the quotes, escapes untouched
  const char* next;            // just after the closing ']' (or the line end for a broken tag)
};

// Scans the tag at `p` ('[' at a tag start). `line_end` is where its line ends; a value never
// runs past it. Never fails: a broken tag still yields a best-effort name and value.
//
// Value rules, in order: a backslash escapes the next byte; a '"' followed by blanks and ']'
// closes the value; any other '"' is part of the value ("Club "Victory""). When the line ends
// first, the value ends at the last '"' that is followed by blanks and ']' (so a trailing
// backslash as in "Tournament \" is kept), or else runs to the line end.
ScannedTag scan_tag(const char* p, const char* line_end);

// After a tag: skips blanks; returns where the line's remaining content starts (== line_end
// when the line holds nothing else).
const char* skip_blanks(const char* p, const char* line_end);

}  // namespace bookforge::pgn
