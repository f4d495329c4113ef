#include "pgn/result_token.h"

namespace bookforge::pgn {

namespace {

enum class Side { kZero, kOne, kHalf, kNone };

// Reads "0", "1", "1/2" or "½" from the front of `s`.
Side take_side(std::string_view& s) {
  if (s.size() >= 3 && s[0] == '1' && s[1] == '/' && s[2] == '2') {
    s.remove_prefix(3);
    return Side::kHalf;
  }
  if (s.size() >= 2 && s[0] == '\xC2' && s[1] == '\xBD') {
    s.remove_prefix(2);
    return Side::kHalf;
  }
  if (!s.empty() && (s[0] == '0' || s[0] == '1')) {
    Side side = s[0] == '0' ? Side::kZero : Side::kOne;
    s.remove_prefix(1);
    return side;
  }
  return Side::kNone;
}

bool take_dash(std::string_view& s) {
  if (!s.empty() && s[0] == '-') {
    s.remove_prefix(1);
    return true;
  }
  if (s.size() >= 3 && s[0] == '\xE2') {
    bool dash = (s[1] == '\x80' && s[2] >= '\x90' && s[2] <= '\x95') || (s[1] == '\x88' && s[2] == '\x92');
    if (dash) s.remove_prefix(3);
    return dash;
  }
  return false;
}

}  // namespace

std::optional<Outcome> parse_result_token(std::string_view token) {
  if (token.empty() || token.size() > kMaxResultTokenBytes) return std::nullopt;
  if (token[0] == '*') return token.size() == 1 ? std::optional(Outcome::kUnknown) : std::nullopt;
  if (token[0] != '0' && token[0] != '1' && token[0] != '\xC2') return std::nullopt;
  std::string_view s = token;
  Side first = take_side(s);
  if (first == Side::kNone) return std::nullopt;
  if (s.empty()) return first == Side::kHalf ? std::optional(Outcome::kDraw) : std::nullopt;
  if (!take_dash(s)) return std::nullopt;
  Side second = take_side(s);
  if (!s.empty()) return std::nullopt;
  if (first == Side::kOne && second == Side::kZero) return Outcome::kWhiteWins;
  if (first == Side::kZero && second == Side::kOne) return Outcome::kBlackWins;
  if (first == Side::kHalf && second == Side::kHalf) return Outcome::kDraw;
  return std::nullopt;
}

std::string_view outcome_text(Outcome outcome) {
  switch (outcome) {
    case Outcome::kWhiteWins:
      return "1-0";
    case Outcome::kBlackWins:
      return "0-1";
    case Outcome::kDraw:
      return "1/2-1/2";
    case Outcome::kUnknown:
      return "*";
  }
  return "*";
}

}  // namespace bookforge::pgn
