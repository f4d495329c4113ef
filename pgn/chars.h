// Byte classes the PGN scanners share. PGN is read as bytes: UTF-8, Latin-1 and stray NULs pass
// through untouched; only ASCII punctuation has a meaning.
#pragma once

#include <cstdint>
#include <string_view>

#include "pgn/byte_set.h"

namespace bookforge::pgn {

// Line breaks end a line: "\n", "\r\n" and a lone "\r" (old Mac files) all work.
constexpr bool is_line_break(unsigned char c) { return c == '\n' || c == '\r'; }
// Blanks inside a line. NUL counts as blank: files padded with zero bytes read like clean ones.
// One shift and mask: bit c of the mask is set for each blank c (all below 64).
constexpr bool is_blank(unsigned char c) {
  constexpr uint64_t kBlanks = (1ull << ' ') | (1ull << '\t') | (1ull << '\v') | (1ull << '\f') | 1ull;
  return c < 64 && ((kBlanks >> c) & 1) != 0;
}
constexpr bool is_space(unsigned char c) { return is_blank(c) || is_line_break(c); }
constexpr bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
constexpr bool is_alpha(unsigned char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }

// Bytes that end a movetext token: spaces and the punctuation of comments, variations, tags.
inline constexpr ByteSet kTokenEnds = make_byte_set(std::string_view(" \t\v\f\0\n\r{}()[];\"", 15));
constexpr bool is_token_end(unsigned char c) { return kTokenEnds.member[c]; }

// The UTF-8 byte order mark, treated as blank at the start of a line.
inline constexpr unsigned char kBom[3] = {0xEF, 0xBB, 0xBF};

}  // namespace bookforge::pgn
