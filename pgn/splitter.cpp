#include "pgn/splitter.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string_view>

#include "pgn/chars.h"
#include "pgn/result_token.h"
#include "pgn/tag_scan.h"

namespace bookforge::pgn {

namespace {

// Bytes the movetext loop must stop at; everything else is skipped in a tight loop. Result
// tokens all contain '-', '/', '*', '½' (0xC2 0xBD) or a unicode dash (0xE2 ...), so those
// bytes trigger a look at the token around them.
constexpr std::array<bool, 256> make_movetext_stops() {
  std::array<bool, 256> t{};
  for (unsigned char c : std::string_view("\n\r{;()-/*\xC2\xE2")) t[c] = true;
  return t;
}
constexpr std::array<bool, 256> kMovetextStops = make_movetext_stops();

bool starts_tagless_game(unsigned char c) {
  return is_alpha(c) || is_digit(c) || c == '*' || c == '-' || c == 0xC2;
}

const unsigned char* find_line_break(const unsigned char* p, const unsigned char* end) {
  while (p < end && !is_line_break(*p)) ++p;
  return p;
}

}  // namespace

GameSplitter::LineKind GameSplitter::classify_line(const unsigned char* d, size_t size, bool final,
                                                   size_t& line_end) const {
  // Every answer is decided within kMaxLineLookahead bytes of the line start, so it does not
  // depend on how much has arrived.
  const size_t limit = std::min(size, pos_ + kMaxLineLookahead);
  const bool window_full = size - pos_ >= kMaxLineLookahead;
  auto undecided = [&] { return window_full || final ? LineKind::kOther : LineKind::kNeedMore; };

  if (d[pos_] == '%' && mode_ != Mode::kComment) return LineKind::kEscape;
  size_t q = pos_;
  for (;;) {
    if (q >= limit) return undecided();
    unsigned char c = d[q];
    if (is_blank(c)) {
      ++q;
    } else if (c == kBom[0]) {
      if (q + 3 > limit) return undecided();
      if (d[q + 1] != kBom[1] || d[q + 2] != kBom[2]) return LineKind::kOther;
      q += 3;
    } else {
      break;
    }
  }
  if (d[q] != '[') return LineKind::kOther;
  const char* text = reinterpret_cast<const char*>(d);
  switch (is_tag_start(text + q, text + limit, final || window_full)) {
    case Tri::kNo: return LineKind::kOther;
    case Tri::kNeedMore: return LineKind::kNeedMore;
    case Tri::kYes: break;
  }
  const unsigned char* brk = find_line_break(d + q, d + limit);
  if (brk < d + limit) {
    line_end = size_t(brk - d);
    return LineKind::kTag;
  }
  if (window_full) return LineKind::kOther;
  if (!final) return LineKind::kNeedMore;
  line_end = size;
  return LineKind::kTag;
}

bool GameSplitter::at_line_start(const unsigned char* d, size_t size, bool final,
                                 std::vector<GameSpan>& spans) {
  size_t line_end = 0;
  LineKind kind = classify_line(d, size, final, line_end);
  if (kind == LineKind::kNeedMore) return false;
  line_start_ = false;
  if (kind == LineKind::kEscape) {
    resume_ = mode_;
    mode_ = Mode::kRestOfLine;
    return true;
  }
  if (kind != LineKind::kTag) return true;

  const char* text = reinterpret_cast<const char*>(d);
  const char* end = text + line_end;
  const char* p = skip_blanks(text + pos_, end);
  while (p < end && *p == kBom[0]) p = skip_blanks(p + 3, end);
  ScannedTag first = scan_tag(p, end);

  // A tag line: a new game unless the open one is still in its tag section and lacks this tag.
  if (in_game_ && (mode_ != Mode::kTags || !note_tag_name(first.name))) end_game(pos_, 0, 0, spans);
  if (!in_game_) {
    begin_game(pos_);
    note_tag_name(first.name);
  }
  mode_ = Mode::kTags;

  p = skip_blanks(first.next, end);
  while (p < end && *p == '[' && is_tag_start(p, end, true) == Tri::kYes) {
    ScannedTag tag = scan_tag(p, end);
    note_tag_name(tag.name);
    p = skip_blanks(tag.next, end);
  }
  pos_ = size_t(p - text);
  if (p < end) mode_ = Mode::kMovetext;  // moves follow the tags on the same line
  return true;
}

bool GameSplitter::at_result_trigger(const unsigned char* d, size_t size, bool final,
                                     std::vector<GameSpan>& spans) {
  size_t s = pos_;
  while (s > game_begin_ && !is_token_end(d[s - 1]) && pos_ - s <= kMaxResultTokenBytes) --s;
  if (pos_ - s > kMaxResultTokenBytes) {
    ++pos_;
    return true;
  }
  size_t e = pos_ + 1;
  while (e < size && !is_token_end(d[e]) && e - s <= kMaxResultTokenBytes) ++e;
  if (e - s > kMaxResultTokenBytes) {
    pos_ = e;
    return true;
  }
  if (e == size && !final) return false;
  std::string_view token(reinterpret_cast<const char*>(d) + s, e - s);
  if (depth_ == 0 && parse_result_token(token)) {
    end_game(e, s, e - s, spans);
    mode_ = Mode::kBetween;
  }
  pos_ = e;
  return true;
}

bool GameSplitter::note_tag_name(std::string_view name) {
  uint64_t hash = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : name) hash = (hash ^ c) * 1099511628211ull;
  if (std::find(tag_names_.begin(), tag_names_.end(), hash) != tag_names_.end()) return false;
  tag_names_.push_back(hash);
  return true;
}

void GameSplitter::begin_game(size_t at) {
  tag_names_.clear();
  in_game_ = true;
  oversized_ = false;
  depth_ = 0;
  game_begin_ = at;
  game_line_ = line_;
}

void GameSplitter::end_game(size_t at, size_t result_begin, size_t result_size, std::vector<GameSpan>& spans) {
  GameSpan span;
  span.begin = game_begin_;
  span.end = at;
  span.result_begin = result_begin;
  span.result_size = result_size;
  span.line = game_line_;
  span.oversized = oversized_;
  if (oversized_) span.begin = span.end = span.result_begin = span.result_size = 0;
  spans.push_back(span);
  in_game_ = false;
  oversized_ = false;
  depth_ = 0;
}

void GameSplitter::scan(const char* data, size_t size, bool final, std::vector<GameSpan>& spans) {
  const unsigned char* d = reinterpret_cast<const unsigned char*>(data);
  while (pos_ < size) {
    if (line_start_ && !at_line_start(d, size, final, spans)) return;
    if (pos_ >= size) break;
    unsigned char c = d[pos_];
    switch (mode_) {
      case Mode::kBetween:
        if (c == '\n') {
          ++line_;
          line_start_ = true;
          ++pos_;
        } else if (c == '\r') {
          line_start_ = true;
          ++pos_;
        } else if (c == '{' || c == ';') {
          resume_ = Mode::kBetween;
          mode_ = c == '{' ? Mode::kComment : Mode::kRestOfLine;
          ++pos_;
        } else if (c == '[') {
          mode_ = Mode::kStrayBrackets;  // "[/pgn]", "[#]": not a tag, not a game
          ++pos_;
        } else if (starts_tagless_game(c)) {
          begin_game(pos_);
          mode_ = Mode::kMovetext;
        } else {
          ++pos_;  // stray byte between games
        }
        break;

      case Mode::kTags:
        if (c == '\n') {
          ++line_;
          line_start_ = true;
          ++pos_;
        } else if (c == '\r') {
          line_start_ = true;
          ++pos_;
        } else if (is_blank(c)) {
          ++pos_;
        } else {
          mode_ = Mode::kMovetext;
        }
        break;

      case Mode::kMovetext:
        while (pos_ < size && !kMovetextStops[d[pos_]]) ++pos_;
        if (pos_ == size) break;
        switch (d[pos_]) {
          case '\n':
            ++line_;
            line_start_ = true;
            ++pos_;
            break;
          case '\r':
            line_start_ = true;
            ++pos_;
            break;
          case '{':
          case ';':
            resume_ = Mode::kMovetext;
            mode_ = d[pos_] == '{' ? Mode::kComment : Mode::kRestOfLine;
            ++pos_;
            break;
          case '(':
            ++depth_;
            ++pos_;
            break;
          case ')':
            if (depth_ > 0) --depth_;
            ++pos_;
            break;
          default:
            if (!at_result_trigger(d, size, final, spans)) return;
            break;
        }
        break;

      case Mode::kComment: {
        const unsigned char* p = d + pos_;
        const unsigned char* end = d + size;
        while (p < end && *p != '}' && !is_line_break(*p)) ++p;
        pos_ = size_t(p - d);
        if (p == end) break;
        if (*p == '}') {
          mode_ = resume_;
        } else {
          if (*p == '\n') ++line_;
          line_start_ = true;
        }
        ++pos_;
        break;
      }

      case Mode::kStrayBrackets: {
        const unsigned char* p = d + pos_;
        while (p < d + size && *p != ']' && !is_line_break(*p)) ++p;
        pos_ = size_t(p - d);
        if (p == d + size) break;
        if (*p == ']') ++pos_;
        mode_ = Mode::kBetween;
        break;
      }

      case Mode::kRestOfLine:
        pos_ = size_t(find_line_break(d + pos_, d + size) - d);
        if (pos_ < size) mode_ = resume_;
        break;
    }
  }
  if (final && in_game_) end_game(size, 0, 0, spans);
}

void GameSplitter::rebase(size_t offset) {
  pos_ -= offset;
  if (in_game_) game_begin_ -= offset;
}

void GameSplitter::drop_open_game_prefix(size_t offset) {
  oversized_ = true;
  pos_ -= offset;
  game_begin_ = game_begin_ > offset ? game_begin_ - offset : 0;
}

}  // namespace bookforge::pgn
