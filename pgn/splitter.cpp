#include "pgn/splitter.h"

#include <algorithm>
#include <cstdint>
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

// FNV-1a
constexpr uint64_t kHashBasis = 1469598103934665603ull;
constexpr uint64_t kHashPrime = 1099511628211ull;

uint64_t name_hash(std::string_view name) {
  uint64_t hash = kHashBasis;
  for (unsigned char c : name) hash = (hash ^ c) * kHashPrime;
  return hash;
}

}  // namespace

// The general path would find the same: is_tag_start says yes at the name's first byte;
// scan_tag ends the name at the blank, and the value at the first quote, which no backslash or
// line break precedes and ']' follows; after it comes the line break, so no other tag.
const char* GameSplitter::plain_tag_line(const char* text, const char* end) {
  const unsigned char* s = reinterpret_cast<const unsigned char*>(text) + pos_ + 1;
  const unsigned char* e = reinterpret_cast<const unsigned char*>(end);
  if (s == e || !(is_alpha(*s) || is_digit(*s) || *s == '_')) return nullptr;
  const unsigned char* name = s;
  uint64_t hash = kHashBasis;  // name_hash, computed on the way
  while (s < e && !kTagNameEnds.member[*s]) hash = (hash ^ *s++) * kHashPrime;
  if (e - s < 2 || s[0] != ' ' || s[1] != '"') return nullptr;
  const unsigned char* value = s + 2;
  const unsigned char* close = find_first_in(value, e, kTagValueStops);
  if (e - close < 3 || close[0] != '"' || close[1] != ']' || !is_line_break(close[2])) return nullptr;
  const auto* base = reinterpret_cast<const unsigned char*>(text);
  tag_names_.push_back(hash);
  line_tags_.push_back(
      LineTag{size_t(name - base), size_t(s - name), size_t(value - base), size_t(close - value)});
  return reinterpret_cast<const char*>(close + 2);
}

bool GameSplitter::at_line_start(const unsigned char* d, size_t size, bool final,
                                 std::vector<GameSpan>& spans) {
  // Every answer is decided within kMaxLineLookahead bytes of the line start, so it does not
  // depend on how much has arrived: `last` says the window holds all there will be.
  const size_t limit = std::min(size, pos_ + kMaxLineLookahead);
  const bool last = final || size - pos_ >= kMaxLineLookahead;
  const char* text = reinterpret_cast<const char*>(d);
  const char* end = text + limit;
  const size_t known = tag_names_.size();
  line_tags_.clear();

  const char* p = d[pos_] == '[' ? plain_tag_line(text, end) : nullptr;
  if (!p) {
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
    p = text + q;
    for (;;) {
      Tri start = is_tag_start(p, end, last);
      if (start == Tri::kNeedMore) return retry_line(known);
      if (start == Tri::kNo) break;
      ScannedTag tag = scan_tag(p, end, last);
      if (!tag.complete) return retry_line(known);
      tag_names_.push_back(name_hash(tag.name));
      line_tags_.push_back(LineTag{size_t(tag.name.data() - text), tag.name.size(),
                                   size_t(tag.raw_value.data() - text), tag.raw_value.size()});
      p = skip_blanks(tag.next, end);
      if (p == end && !last) return retry_line(known);
      if (p == end || *p != '[') break;
    }
  }
  line_start_ = false;
  // Beyond a window cut short the lexer, which sees the whole line, may find other tags.
  const bool cut = limit < size;
  if (tag_names_.size() == known) {  // "[%clk ...]", "[#]": not a tag line
    if (cut) tags_known_ = false;
    return true;
  }

  // A tag line: a new game unless the open one is still in its tag section and lacks this tag.
  // The names are searched only when the answer matters.
  if (in_game_ && (mode_ != Mode::kTags || repeats_earlier_name(known))) end_game(pos_, 0, 0, spans);
  if (!in_game_) {
    begin_game(pos_);
    tag_names_.erase(tag_names_.begin(), tag_names_.begin() + std::ptrdiff_t(known));  // the last game's
    forget_indexed_names();
  }
  if (cut) tags_known_ = false;
  for (const LineTag& t : line_tags_) {
    if (t.value_begin + t.value_size - game_begin_ > UINT32_MAX) tags_known_ = false;
    open_tags_.push_back(TagSpan{uint32_t(t.name_begin - game_begin_), uint32_t(t.name_size),
                                 uint32_t(t.value_begin - game_begin_), uint32_t(t.value_size)});
  }
  pos_ = size_t(p - text);
  // Moves may follow the tags on the same line.
  if (p < end && !is_line_break(static_cast<unsigned char>(*p))) {
    enter_movetext(d);
  } else {
    mode_ = Mode::kTags;
  }
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

bool GameSplitter::repeats_earlier_name(size_t known) {
  const uint64_t name = tag_names_[known];
  const auto known_end = tag_names_.begin() + std::ptrdiff_t(known);
  if (known <= kLinearNameSearch) return std::find(tag_names_.begin(), known_end, name) != known_end;
  for (; indexed_names_ < known; ++indexed_names_) name_index_.insert(tag_names_[indexed_names_]);
  return name_index_.contains(name);
}

void GameSplitter::forget_indexed_names() {
  if (indexed_names_ == 0) return;
  name_index_.clear();
  indexed_names_ = 0;
}

bool GameSplitter::retry_line(size_t known_tags) {
  // The index holds names of earlier lines only, all below known_tags.
  tag_names_.resize(known_tags);
  return false;
}

void GameSplitter::begin_game(size_t at) {
  in_game_ = true;
  oversized_ = false;
  depth_ = 0;
  game_begin_ = at;
  game_line_ = line_;
  open_tags_.clear();
  movetext_begin_ = kNoMovetextYet;
  tags_known_ = true;
}

void GameSplitter::enter_movetext(const unsigned char* d) {
  mode_ = Mode::kMovetext;
  movetext_begin_ = pos_;
  // The lexer skips a BOM here and reads on for tags; the splitter takes it as movetext.
  if (d[pos_] == kBom[0]) tags_known_ = false;
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
  if (oversized_) {
    span.begin = span.end = span.result_begin = span.result_size = 0;
  } else if (tags_out_ && tags_known_ && open_tags_.size() <= UINT32_MAX) {
    span.tags_known = true;
    span.first_tag = tags_out_->size();
    span.tag_count = uint32_t(open_tags_.size());
    // A game that ends in its tag section has empty movetext: the lexer would skip to its end.
    span.movetext_begin = movetext_begin_ == kNoMovetextYet ? at : movetext_begin_;
    tags_out_->insert(tags_out_->end(), open_tags_.begin(), open_tags_.end());
  }
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

void GameSplitter::scan(const char* data, size_t size, bool final, std::vector<GameSpan>& spans,
                        std::vector<TagSpan>* tags) {
  tags_out_ = tags;
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
          forget_indexed_names();
          begin_game(pos_);
          enter_movetext(d);
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
          enter_movetext(d);
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
  if (in_game_) {
    game_begin_ -= offset;
    if (movetext_begin_ != kNoMovetextYet) movetext_begin_ -= offset;
  }
}

void GameSplitter::drop_open_game_prefix(size_t offset) {
  oversized_ = true;
  tags_known_ = false;
  pos_ -= offset;
  retry_size_ = retry_size_ > offset ? retry_size_ - offset : 0;
  game_begin_ = game_begin_ > offset ? game_begin_ - offset : 0;
}

}  // namespace bookforge::pgn
