// Playing a move list given as text ("1.e4 e5 2.Nf3", "e2e4 e7e5 g1f3", or a mix): what the
// CLI's --moves options and tests need.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "chess/board.h"

namespace bookforge::chess {

// The last move of a line and the position it was played in, for a caller that looks back one
// ply (how games came to a position: store/explore.h).
struct LastMove {
  Board before;
  Move move;
};

// Plays whitespace-separated moves, each in SAN (any form san_to_move accepts) or UCI, on
// `board`. Move numbers ("12.", "12...", glued or not) are skipped. On a bad move the board is
// left before it and the error says which move and why. `last`, if given, gets the last move
// played (left empty when there is none); `history`, if given, gets the key of each position a
// move was played from (what a search needs to see repetitions).
Status play_moves(Board& board, std::string_view moves, std::optional<LastMove>* last = nullptr,
                  std::vector<uint64_t>* history = nullptr);

}  // namespace bookforge::chess
