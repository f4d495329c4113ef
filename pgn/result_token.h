// Game termination markers as real files write them.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "pgn/game.h"

namespace bookforge::pgn {

// No result marker is longer than this ("1/2\u20131/2" is 9 bytes).
inline constexpr size_t kMaxResultTokenBytes = 12;

// "1-0", "0-1", "1/2-1/2", "*", also "½-½", a lone "1/2" or "½", and any of U+2010..U+2015 or
// U+2212 in place of the '-'. Anything else (including "0-0", which is castling) is no result.
std::optional<Outcome> parse_result_token(std::string_view token);

// The result as PGN's Result tag spells it: "1-0", "0-1", "1/2-1/2" or "*".
std::string_view outcome_text(Outcome outcome);

}  // namespace bookforge::pgn
