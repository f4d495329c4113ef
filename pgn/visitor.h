// The push interface of the PGN lexer, after pgn-reader: the lexer walks one game and calls
// the visitor for each part; the visitor decides what to keep. Every callback answers
// kContinue, kSkip (skip the rest of this game; end_game still follows) or kStop (stop the
// block right away). begin_variation's kSkip skips just that variation.
//
// Views handed to callbacks borrow from the block and stay valid until end_game returns.
#pragma once

#include <cstdint>
#include <string_view>

#include "pgn/game.h"
#include "pgn/tag_value.h"

namespace bookforge::pgn {

enum class Control : uint8_t { kContinue, kSkip, kStop };

enum class LexError : uint8_t {
  kUnterminatedComment,    // '{' without '}' before the game ended
  kUnterminatedVariation,  // '(' without ')'
  kOversized,              // the game was longer than the reader's limit; its text was dropped
};
std::string_view lex_error_reason(LexError e);

// What the visitor knows about a game before it starts: where it is and how it ends.
struct GameContext {
  std::string_view text;    // the game's bytes as found in the input
  uint64_t first_line = 1;  // line of text[0] in its input
  std::string_view result;  // the result token that ended the movetext, empty if none

  // The input line of a byte inside `text` (e.g. of a token handed to san()).
  uint64_t line_of(const char* where) const;
};

class Visitor {
 public:
  virtual ~Visitor() = default;
  virtual Control begin_game(const GameContext&) { return Control::kContinue; }
  virtual Control tag(std::string_view /*name*/, TagValue /*value*/) { return Control::kContinue; }
  virtual Control begin_movetext() { return Control::kContinue; }
  // A move as written, without move number and without trailing !/? (those come as nag()).
  // Null moves ("--", "Z0") and anything else that is not punctuation arrive here too.
  virtual Control san(std::string_view /*token*/) { return Control::kContinue; }
  virtual Control nag(int /*nag*/) { return Control::kContinue; }
  virtual Control comment(std::string_view /*text*/) { return Control::kContinue; }
  virtual Control begin_variation() { return Control::kContinue; }
  virtual Control end_variation() { return Control::kContinue; }
  // A result token at variation depth 0.
  virtual Control outcome(Outcome /*outcome*/, std::string_view /*token*/) { return Control::kContinue; }
  // The game is malformed; `where` points at the offending byte (nullptr for kOversized).
  virtual Control error(LexError /*error*/, const char* /*where*/) { return Control::kContinue; }
  virtual void end_game() {}
};

}  // namespace bookforge::pgn
