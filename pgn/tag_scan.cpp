#include "pgn/tag_scan.h"

#include "pgn/chars.h"

namespace bookforge::pgn {

namespace {

constexpr bool is_name_start(unsigned char c) { return is_alpha(c) || is_digit(c) || c == '_'; }
constexpr bool is_name_byte(unsigned char c) { return !is_space(c) && c != '"' && c != ']' && c != '['; }

const unsigned char* uc(const char* p) { return reinterpret_cast<const unsigned char*>(p); }

// Does a ']' follow after blanks?
const char* closing_bracket_after(const char* p, const char* line_end) {
  p = skip_blanks(p, line_end);
  return p < line_end && *p == ']' ? p : nullptr;
}

}  // namespace

const char* skip_blanks(const char* p, const char* line_end) {
  while (p < line_end && is_blank(*uc(p))) ++p;
  return p;
}

Tri is_tag_start(const char* p, const char* end, bool final) {
  const char* q = p + 1;
  while (q < end && is_blank(*uc(q))) ++q;
  if (q == end) return final ? Tri::kNo : Tri::kNeedMore;
  return is_name_start(*uc(q)) ? Tri::kYes : Tri::kNo;
}

ScannedTag scan_tag(const char* p, const char* line_end) {
  ScannedTag tag{};
  p = skip_blanks(p + 1, line_end);
  const char* name_begin = p;
  while (p < line_end && is_name_byte(*uc(p))) ++p;
  tag.name = std::string_view(name_begin, size_t(p - name_begin));
  p = skip_blanks(p, line_end);

  if (p < line_end && *p == '"') {
    const char* value_begin = ++p;
    while (p < line_end) {
      if (*p == '\\' && p + 1 < line_end) {
        p += 2;
        continue;
      }
      if (*p == '"') {
        if (const char* bracket = closing_bracket_after(p + 1, line_end)) {
          tag.raw_value = std::string_view(value_begin, size_t(p - value_begin));
          tag.next = bracket + 1;
          return tag;
        }
      }
      ++p;
    }
    // The line ended inside the value: take the last quote that closes it, escapes ignored.
    for (const char* q = line_end; q > value_begin;) {
      --q;
      if (*q != '"') continue;
      if (const char* bracket = closing_bracket_after(q + 1, line_end)) {
        tag.raw_value = std::string_view(value_begin, size_t(q - value_begin));
        tag.next = bracket + 1;
        return tag;
      }
    }
    const char* value_end = line_end;
    while (value_end > value_begin && is_space(*uc(value_end - 1))) --value_end;
    if (value_end > value_begin && value_end[-1] == ']') --value_end;
    tag.raw_value = std::string_view(value_begin, size_t(value_end - value_begin));
    tag.next = line_end;
    return tag;
  }

  // An unquoted value ("[pgn]", "[Round 3]"): up to the next ']' on the line.
  const char* value_begin = p;
  while (p < line_end && *p != ']') ++p;
  const char* value_end = p;
  while (value_end > value_begin && is_space(*uc(value_end - 1))) --value_end;
  tag.raw_value = std::string_view(value_begin, size_t(value_end - value_begin));
  tag.next = p < line_end ? p + 1 : line_end;
  return tag;
}

}  // namespace bookforge::pgn
