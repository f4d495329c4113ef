#include "pgn/lexer.h"

#include <algorithm>
#include <cstring>

#include "pgn/byte_set.h"
#include "pgn/chars.h"
#include "pgn/result_token.h"
#include "pgn/tag_scan.h"

namespace bookforge::pgn {

std::string_view lex_error_reason(LexError e) {
  switch (e) {
    case LexError::kUnterminatedComment:
      return "unterminated_comment";
    case LexError::kUnterminatedVariation:
      return "unterminated_variation";
    case LexError::kOversized:
      return "oversized_game";
  }
  return "?";
}

uint64_t GameContext::line_of(const char* where) const {
  if (where < text.data() || where > text.data() + text.size()) return first_line;
  return first_line + uint64_t(std::count(text.data(), where, '\n'));
}

namespace {

const unsigned char* uc(const char* p) { return reinterpret_cast<const unsigned char*>(p); }

// A move ends where a token ends, or at a suffix annotation or a glued NAG.
constexpr ByteSet kMoveEnds = make_byte_set(std::string_view(" \t\v\f\0\n\r{}()[];\"!?$", 18));

// A move ends before any '!', '?' or '$' glued to it; those come next as NAGs. `p` is at its
// first byte, which is not in kMoveEnds.
const char* move_end(const char* p, const char* end) {
  return reinterpret_cast<const char*>(find_first_in(uc(p), uc(end), kMoveEnds));
}

// Past the digits and then the dots of a move number ("12", "12.", "1...").
const char* skip_move_number(const char* p, const char* end) {
  while (p < end && is_digit(*uc(p))) ++p;
  while (p < end && *p == '.') ++p;
  return p;
}

const char* find_line_break(const char* p, const char* end) {
  while (p < end && !is_line_break(*uc(p))) ++p;
  return p;
}

// Evaluation glyphs written as text ("+-", "=/+", "±"): punctuation and non-ASCII only.
bool is_glyph_token(std::string_view token) {
  if (token == "--") return false;
  for (char c : token) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x80 && c != '+' && c != '-' && c != '=' && c != '/') return false;
  }
  return true;
}

int suffix_nag(std::string_view s) {
  if (s == "!") return 1;
  if (s == "?") return 2;
  if (s == "!!") return 3;
  if (s == "??") return 4;
  if (s == "!?") return 5;
  if (s == "?!") return 6;
  return 0;
}

class GameLexer {
 public:
  GameLexer(const GameContext& game, Visitor& visitor)
      : game_(game), v_(visitor), p_(game.text.data()), end_(game.text.data() + game.text.size()) {}

  Control run() {
    Control c = v_.begin_game(game_);
    if (c == Control::kContinue) c = tags();
    return finish(c);
  }

  // The splitter already scanned the tag section: its tags, then movetext from `movetext`.
  Control run(const TagSpan* tags, uint32_t tag_count, const char* movetext) {
    Control c = v_.begin_game(game_);
    const char* text = game_.text.data();
    for (uint32_t i = 0; i < tag_count && c == Control::kContinue; ++i) {
      const TagSpan& t = tags[i];
      c = v_.tag(std::string_view(text + t.name_begin, t.name_size),
                 TagValue(std::string_view(text + t.value_begin, t.value_size)));
    }
    p_ = movetext;
    return finish(c);
  }

 private:
  Control finish(Control c) {
    if (c == Control::kContinue) c = v_.begin_movetext();
    if (c == Control::kContinue) c = movetext();
    if (c == Control::kStop) return c;
    v_.end_game();
    return Control::kContinue;
  }

  Control tags() {
    for (;;) {
      skip_spaces();
      if (p_ == end_) return Control::kContinue;
      if (*p_ == '[') {
        if (is_tag_start(p_, end_, true) != Tri::kYes) return Control::kContinue;
        ScannedTag t = scan_tag(p_, end_, true);
        p_ = t.next;
        line_start_ = false;
        if (Control c = v_.tag(t.name, TagValue(t.raw_value)); c != Control::kContinue) return c;
        continue;
      }
      if (line_start_ && *p_ == '%') {
        p_ = find_line_break(p_, end_);
        continue;
      }
      if (end_ - p_ >= 3 && std::memcmp(p_, kBom, 3) == 0) {
        p_ += 3;
        continue;
      }
      return Control::kContinue;
    }
  }

  void skip_spaces() {
    while (p_ < end_ && is_space(*uc(p_))) {
      line_start_ = is_line_break(*uc(p_));
      ++p_;
    }
  }

  Control movetext() {
    int depth = 0;
    // Plain movetext ("12.Nf3 Nc6 13.Bb5 a6") is spaces, moves and move numbers, about three
    // bytes or words per ply: those are handled here, with the position in a register, before
    // the switch of everything else (which works on p_).
    const char* p = p_;
    const char* const end = end_;  // a local: the visitor's calls would make end_ be read again
    // Where moves end (kMoveEnds) in the 32 bytes from `window`: bit i for window[i]. One
    // lookup serves the several moves a window holds.
    const char* window = p;
    uint32_t window_ends = 0;
    while (p < end) {
      const unsigned char c = *uc(p);
      if (c == ' ') {
        ++p;
        continue;
      }
      if (is_alpha(c)) {
        const char* begin = p;
        const size_t offset = size_t(p - window);
        uint32_t ends = offset < 32 ? window_ends >> offset : 0;
        if (ends == 0 && end - p >= 32) {
          window = p;
          window_ends = ends = members_of_32(uc(p), kMoveEnds);
        }
        // No end in the window (the text's last 31 bytes, or a word of 32 bytes or more): search on.
        p = ends != 0 ? p + __builtin_ctz(ends) : move_end(p, end);
        if (Control ctl = move(std::string_view(begin, size_t(p - begin))); ctl != Control::kContinue)
          return ctl;
        continue;
      }
      // A move number ("12.", "1...", "1.e4"): no result has a digit or '.' second.
      if (is_digit(c) && p + 1 < end && (p[1] == '.' || is_digit(*uc(p + 1)))) {
        p = skip_move_number(p + 1, end);
        continue;
      }
      p_ = p;
      if (Control ctl = punctuation(c, depth); ctl != Control::kContinue) return ctl;
      p = p_;
    }
    if (depth > 0) return fail(LexError::kUnterminatedVariation, end_);
    return Control::kContinue;
  }

  // Any byte of movetext but a space, a letter or a move number's first digit, at p_.
  Control punctuation(unsigned char c, int& depth) {
    Control ctl = Control::kContinue;
    switch (c) {
      case '\t':
      case '\v':
      case '\f':
      case '\0':
        ++p_;
        return Control::kContinue;
      case '\n':
      case '\r':
        ++p_;
        if (p_ < end_ && *p_ == '%') p_ = find_line_break(p_, end_);  // escape line
        return Control::kContinue;
      case '{': {
        const char* close = static_cast<const char*>(std::memchr(p_ + 1, '}', size_t(end_ - p_ - 1)));
        if (!close) return fail(LexError::kUnterminatedComment, p_);
        ctl = v_.comment(std::string_view(p_ + 1, size_t(close - p_ - 1)));
        p_ = close + 1;
        break;
      }
      case ';': {
        const char* eol = find_line_break(p_, end_);
        ctl = v_.comment(std::string_view(p_ + 1, size_t(eol - p_ - 1)));
        p_ = eol;
        break;
      }
      case '(': {
        const char* open = p_++;
        ctl = v_.begin_variation();
        if (ctl == Control::kSkip) {
          ctl = Control::kContinue;
          if (!skip_variation()) return fail(LexError::kUnterminatedVariation, open);
        } else {
          ++depth;
        }
        break;
      }
      case ')':
        ++p_;
        if (depth > 0) {
          --depth;
          ctl = v_.end_variation();
        }
        break;
      case '$': {
        ++p_;
        int nag = 0, digits = 0;
        while (p_ < end_ && is_digit(*uc(p_)) && digits < 4) nag = nag * 10 + (*p_++ - '0'), ++digits;
        if (digits > 0) ctl = v_.nag(nag);
        break;
      }
      case '!':
      case '?': {
        const char* begin = p_;
        while (p_ < end_ && (*p_ == '!' || *p_ == '?')) ++p_;
        if (int nag = suffix_nag(std::string_view(begin, size_t(p_ - begin)))) ctl = v_.nag(nag);
        break;
      }
      case '[':
        // Bracketed junk outside comments ("[%clk 0:01:00]" from broken exports).
        while (p_ < end_ && *p_ != ']' && !is_line_break(*uc(p_))) ++p_;
        if (p_ < end_ && *p_ == ']') ++p_;
        break;
      default:
        ctl = token(depth);
        break;
    }
    return ctl;
  }

  // A word of movetext that movetext() did not take for a move or a move number: a result,
  // a move number glued to its move's letters, a glyph, or a move not starting with a letter
  // ("--", "0-0").
  Control token(int depth) {
    const char* begin = p_;
    const unsigned char first = *uc(begin);
    const char* word_end = reinterpret_cast<const char*>(find_first_in(uc(p_), uc(end_), kTokenEnds));
    std::string_view word(begin, size_t(word_end - begin));
    if (word.empty()) {  // a lone '}', ']' or '"'
      ++p_;
      return Control::kContinue;
    }
    // Results end in '0', '1', '2', '*' or '½' (0xBD); move numbers ("1.", "10.") in '.'.
    if ((first == '0' || first == '1' || first == '*' || first == 0xC2) && word.back() != '.') {
      if (std::optional<Outcome> outcome = parse_result_token(word)) {
        p_ = word_end;
        return depth == 0 ? v_.outcome(*outcome, word) : Control::kContinue;
      }
    }
    if (is_digit(first) && word.substr(0, 3) != "0-0") {
      // Move number: "12", "12.", "12...", "1.e4" (the move follows as its own token).
      p_ = skip_move_number(p_, word_end);
      return Control::kContinue;
    }
    if (first == '.') {
      while (p_ < word_end && *p_ == '.') ++p_;
      return Control::kContinue;
    }
    if (is_glyph_token(word)) {
      p_ = word_end;
      return Control::kContinue;
    }
    p_ = move_end(begin, end_);
    return move(std::string_view(begin, size_t(p_ - begin)));
  }

  Control move(std::string_view san) {
    if (san == "e.p." || san == "ep") return Control::kContinue;  // en passant remark after the capture
    return v_.san(san);
  }

  // Just after '(': skips to the matching ')'. False when the game ends first.
  bool skip_variation() {
    int depth = 1;
    while (p_ < end_) {
      const unsigned char c = *uc(p_++);
      switch (c) {
        case '\n':
        case '\r':
          if (p_ < end_ && *p_ == '%') p_ = find_line_break(p_, end_);
          break;
        case '{': {
          const char* close = static_cast<const char*>(std::memchr(p_, '}', size_t(end_ - p_)));
          if (!close) return false;
          p_ = close + 1;
          break;
        }
        case ';':
          p_ = find_line_break(p_, end_);
          break;
        case '(':
          ++depth;
          break;
        case ')':
          if (--depth == 0) return true;
          break;
        default:
          break;
      }
    }
    return false;
  }

  Control fail(LexError error, const char* where) {
    Control c = v_.error(error, where);
    return c == Control::kStop ? c : Control::kSkip;
  }

  const GameContext& game_;
  Visitor& v_;
  const char* p_;
  const char* end_;
  bool line_start_ = true;
};

}  // namespace

Control visit_game(const Block& block, const GameSpan& span, Visitor& visitor) {
  GameContext game;
  game.first_line = span.line;
  if (span.oversized) {
    if (visitor.begin_game(game) == Control::kStop) return Control::kStop;
    if (visitor.error(LexError::kOversized, nullptr) == Control::kStop) return Control::kStop;
    visitor.end_game();
    return Control::kContinue;
  }
  game.text = std::string_view(block.data.data() + span.begin, span.end - span.begin);
  if (span.result_size > 0)
    game.result = std::string_view(block.data.data() + span.result_begin, span.result_size);
  if (span.tags_known)
    return GameLexer(game, visitor)
        .run(block.tags.data() + span.first_tag, span.tag_count, block.data.data() + span.movetext_begin);
  return GameLexer(game, visitor).run();
}

Control visit_game_text(std::string_view text, Visitor& visitor) {
  GameContext game;
  game.text = text;
  return GameLexer(game, visitor).run();
}

}  // namespace bookforge::pgn
