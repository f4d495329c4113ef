#include "pgn/splitter.h"

#include <algorithm>
#include <string_view>

#include "pgn/byte_set.h"
#include "pgn/chars.h"
#include "pgn/result_token.h"
#include "pgn/tag_scan.h"

namespace bookforge::pgn {

namespace {

// Bytes the movetext loop stops at. Result tokens all contain '-', '/', '*', '½' (0xC2 0xBD) or
// a unicode dash (0xE2 ...), so those bytes trigger a look at the token around them.
constexpr ByteSet kMovetextStops = make_byte_set("\n\r{;()-/*\xC2\xE2");
constexpr ByteSet kCommentStops = make_byte_set("}\n\r");
constexpr ByteSet kLineBreaks = make_byte_set("\n\r");
constexpr ByteSet kBracketStops = make_byte_set("]\n\r");
// The first bytes of a line that need a closer look (blanks, BOM, tag, escape line); any other
// byte starts a line of movetext or text, which settles the line start at once.
constexpr ByteSet kLineStartLooks = make_byte_set(std::string_view(" \t\v\f\0[%\xEF", 8));

bool starts_tagless_game(unsigned char c) {
  return is_alpha(c) || is_digit(c) || c == '*' || c == '-' || c == 0xC2;
}

uint64_t name_hash(std::string_view name) {
  uint64_t hash = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : name) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

}  // namespace

bool GameSplitter::at_line_start(const unsigned char* d, size_t size, bool final,
                                 std::vector<GameSpan>& spans) {
  // Every answer is decided within kMaxLineLookahead bytes of the line start, so it does not
  // depend on how much has arrived: `last` says the window holds all there will be.
  const size_t limit = std::min(size, pos_ + kMaxLineLookahead);
  const bool last = final || size - pos_ >= kMaxLineLookahead;

  if (d[pos_] == '%' && mode_ != Mode::kComment) {  // escape line
    line_start_ = false;
    resume_ = mode_;
    mode_ = Mode::kRestOfLine;
    return true;
  }
  size_t q = pos_;
  for (;;) {
    if (q >= limit) {
      if (!last) return false;
      line_start_ = false;
      return true;
    }
    if (is_blank(d[q])) {
      ++q;
    } else if (d[q] == kBom[0] && q + 3 <= limit && d[q + 1] == kBom[1] && d[q + 2] == kBom[2]) {
      q += 3;
    } else if (d[q] == kBom[0] && q + 3 > limit && !last) {
      return false;
    } else {
      break;
    }
  }
  if (d[q] != '[') {
    line_start_ = false;
    return true;
  }

  // Scan every tag of the line before acting, so that a need for more bytes changes nothing:
  // the line's name hashes go after the open game's and are dropped again on a retry.
  const char* text = reinterpret_cast<const char*>(d);
  const char* end = text + limit;
  const char* p = text + q;
  const size_t known = tag_names_.size();
  for (;;) {
    Tri start = is_tag_start(p, end, last);
    if (start == Tri::kNeedMore) return retry_line(known);
    if (start == Tri::kNo) break;
    ScannedTag tag = scan_tag(p, end, last);
    if (!tag.complete) return retry_line(known);
    tag_names_.push_back(name_hash(tag.name));
    p = skip_blanks(tag.next, end);
    if (p == end && !last) return retry_line(known);
    if (p == end || *p != '[') break;
  }
  line_start_ = false;
  if (tag_names_.size() == known) return true;  // "[%clk ...]", "[#]": not a tag line

  // A tag line: a new game unless the open one is still in its tag section and lacks this tag.
  const auto known_end = tag_names_.begin() + std::ptrdiff_t(known);
  const bool repeated = std::find(tag_names_.begin(), known_end, *known_end) != known_end;
  if (in_game_ && (mode_ != Mode::kTags || repeated)) end_game(pos_, 0, 0, spans);
  if (!in_game_) {
    begin_game(pos_);
    tag_names_.erase(tag_names_.begin(), tag_names_.begin() + std::ptrdiff_t(known));  // the last game's
  }
  pos_ = size_t(p - text);
  // Moves may follow the tags on the same line.
  mode_ = p < end && !is_line_break(static_cast<unsigned char>(*p)) ? Mode::kMovetext : Mode::kTags;
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

bool GameSplitter::retry_line(size_t known_tags) {
  tag_names_.resize(known_tags);
  return false;
}

void GameSplitter::begin_game(size_t at) {
  in_game_ = true;
  oversized_ = false;
  depth_ = 0;
  game_begin_ = at;
  game_line_ = line_;
}

void GameSplitter::end_game(size_t at, size_t result_begin, size_t result_size,
                            std::vector<GameSpan>& spans) {
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

void GameSplitter::line_break(unsigned char c) {
  if (c == '\n') ++line_;
  line_start_ = true;
  ++pos_;
}

void GameSplitter::scan(const char* data, size_t size, bool final, std::vector<GameSpan>& spans) {
  const unsigned char* d = reinterpret_cast<const unsigned char*>(data);
  const unsigned char* end = d + size;
  while (pos_ < size) {
    if (line_start_ && !kLineStartLooks.member[d[pos_]]) {
      line_start_ = false;  // most lines: movetext
    } else if (line_start_) {
      // A line start that needed more bytes is looked at again only once the data has doubled,
      // so a long line arriving in small reads is not rescanned for every read.
      if (!final && size < retry_size_) return;
      if (!at_line_start(d, size, final, spans)) {
        retry_size_ = pos_ + 2 * (size - pos_) + 1;
        return;
      }
      retry_size_ = 0;
    }
    if (pos_ >= size) break;
    const unsigned char c = d[pos_];
    switch (mode_) {
      case Mode::kBetween:
        if (is_line_break(c)) {
          line_break(c);
        } else if (c == '{' || c == ';') {
          resume_ = Mode::kBetween;
          mode_ = c == '{' ? Mode::kComment : Mode::kRestOfLine;
          ++pos_;
        } else if (c == '[') {
          mode_ = Mode::kStrayBrackets;  // "[/pgn]", "[#]": not a tag, not a game
          ++pos_;
        } else if (starts_tagless_game(c)) {
          tag_names_.clear();
          begin_game(pos_);
          mode_ = Mode::kMovetext;
        } else {
          ++pos_;  // blanks and stray bytes between games
        }
        break;

      case Mode::kTags:
        if (is_line_break(c)) {
          line_break(c);
        } else if (is_blank(c)) {
          ++pos_;
        } else {
          mode_ = Mode::kMovetext;
        }
        break;

      case Mode::kMovetext:
        pos_ = size_t(find_first_in(d + pos_, end, kMovetextStops) - d);
        if (pos_ == size) break;
        switch (d[pos_]) {
          case '\n':
          case '\r':
            line_break(d[pos_]);
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

      case Mode::kComment:
        pos_ = size_t(find_first_in(d + pos_, end, kCommentStops) - d);
        if (pos_ == size) break;
        if (d[pos_] == '}') {
          mode_ = resume_;
          ++pos_;
        } else {
          line_break(d[pos_]);
        }
        break;

      case Mode::kStrayBrackets:
        pos_ = size_t(find_first_in(d + pos_, end, kBracketStops) - d);
        if (pos_ == size) break;
        if (d[pos_] == ']') ++pos_;
        mode_ = Mode::kBetween;
        break;

      case Mode::kRestOfLine:
        pos_ = size_t(find_first_in(d + pos_, end, kLineBreaks) - d);
        if (pos_ < size) mode_ = resume_;
        break;
    }
  }
  if (final && in_game_) end_game(size, 0, 0, spans);
}

void GameSplitter::rebase(size_t offset) {
  pos_ -= offset;
  retry_size_ = retry_size_ > offset ? retry_size_ - offset : 0;
  if (in_game_) game_begin_ -= offset;
}

void GameSplitter::drop_open_game_prefix(size_t offset) {
  oversized_ = true;
  pos_ -= offset;
  retry_size_ = retry_size_ > offset ? retry_size_ - offset : 0;
  game_begin_ = game_begin_ > offset ? game_begin_ - offset : 0;
}

}  // namespace bookforge::pgn
