#include "pgn/tag_scan.h"

#include "pgn/byte_set.h"

namespace bookforge::pgn {

namespace {

const unsigned char* uc(const char* p) { return reinterpret_cast<const unsigned char*>(p); }

// A ']' after blanks, or nullptr.
const char* closing_bracket_after(const char* p, const char* line_end) {
  p = skip_blanks(p, line_end);
  return p < line_end && *p == ']' ? p : nullptr;
}

ScannedTag incomplete() {
  ScannedTag tag;
  tag.complete = false;
  return tag;
}

// The value ran into the end of its line [value_begin, line_end): take the last quote that
// closes it (escapes ignored), else everything up to the line end.
void finish_broken_value(ScannedTag& tag, const char* value_begin, const char* line_end) {
  for (const char* q = line_end; q > value_begin;) {
    --q;
    if (*q != '"') continue;
    if (const char* bracket = closing_bracket_after(q + 1, line_end)) {
      tag.raw_value = std::string_view(value_begin, size_t(q - value_begin));
      tag.next = bracket + 1;
      return;
    }
  }
  const char* value_end = line_end;
  while (value_end > value_begin && is_space(*uc(value_end - 1))) --value_end;
  if (value_end > value_begin && value_end[-1] == ']') --value_end;
  tag.raw_value = std::string_view(value_begin, size_t(value_end - value_begin));
  tag.next = line_end;
}

}  // namespace

ScannedTag scan_tag(const char* p, const char* end, bool final) {
  ScannedTag tag;
  p = skip_blanks(p + 1, end);
  const char* name_begin = p;
  p = reinterpret_cast<const char*>(find_first_in(uc(p), uc(end), kTagNameEnds));
  tag.name = std::string_view(name_begin, size_t(p - name_begin));
  p = skip_blanks(p, end);
  if (p == end && !final) return incomplete();

  if (p < end && *p == '"') {
    const char* value_begin = ++p;
    while (p < end) {
      p = reinterpret_cast<const char*>(find_first_in(uc(p), uc(end), kTagValueStops));
      if (p == end) break;
      const unsigned char c = *uc(p);
      if (c == '\\' && p + 1 < end && !is_line_break(*uc(p + 1))) {
        p += 2;
      } else if (c == '"') {
        const char* after = skip_blanks(p + 1, end);
        if (after == end && !final) return incomplete();
        if (after < end && *after == ']') {
          tag.raw_value = std::string_view(value_begin, size_t(p - value_begin));
          tag.next = after + 1;
          return tag;
        }
        ++p;
      } else if (is_line_break(c)) {
        break;
      } else {
        ++p;  // a backslash just before the line break or the end
      }
    }
    if (p == end && !final) return incomplete();
    finish_broken_value(tag, value_begin, p);
    return tag;
  }

  // An unquoted value ("[pgn]", "[Round 3]"): up to the next ']' on the line.
  const char* value_begin = p;
  while (p < end && *p != ']' && !is_line_break(*uc(p))) ++p;
  if (p == end && !final) return incomplete();
  const char* value_end = p;
  while (value_end > value_begin && is_space(*uc(value_end - 1))) --value_end;
  tag.raw_value = std::string_view(value_begin, size_t(value_end - value_begin));
  tag.next = p < end && *p == ']' ? p + 1 : p;
  return tag;
}

}  // namespace bookforge::pgn
