// Byte classes the PGN scanners share. PGN is read as bytes: UTF-8, Latin-1 and stray NULs pass
// through untouched; only ASCII punctuation has a meaning.
#pragma once

#include <array>

namespace bookforge::pgn {

// Line breaks end a line: "\n", "\r\n" and a lone "\r" (old Mac files) all work.
constexpr bool is_line_break(unsigned char c) { return c == '\n' || c == '\r'; }
// Blanks inside a line. NUL counts as blank: files padded with zero bytes read like clean ones.
constexpr bool is_blank(unsigned char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == 0; }
constexpr bool is_space(unsigned char c) { return is_blank(c) || is_line_break(c); }
constexpr bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
constexpr bool is_alpha(unsigned char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }

namespace detail {
constexpr std::array<bool, 256> make_token_end_table() {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c) t[size_t(c)] = is_space((unsigned char)c);
  for (unsigned char c : {'{', '}', '(', ')', ';', '[', ']', '"'}) t[c] = true;
  return t;
}
inline constexpr std::array<bool, 256> kTokenEnd = make_token_end_table();
}  // namespace detail

// Bytes that end a movetext token: spaces and the punctuation of comments, variations, tags.
constexpr bool is_token_end(unsigned char c) { return detail::kTokenEnd[c]; }

// The UTF-8 byte order mark, treated as blank at the start of a line.
inline constexpr unsigned char kBom[3] = {0xEF, 0xBB, 0xBF};

}  // namespace bookforge::pgn
