// Playing a move list given as text ("1.e4 e5 2.Nf3", "e2e4 e7e5 g1f3", or a mix): what the
// CLI's --moves options and tests need.
#pragma once

#include <string_view>

#include "engine/board.h"
#include "engine/result.h"

namespace bookforge {

// Plays whitespace-separated moves, each in SAN (any form san_to_move accepts) or UCI, on
// `board`. Move numbers ("12.", "12...", glued or not) are skipped. On a bad move the board is
// left before it and the error says which move and why.
Status play_moves(Board& board, std::string_view moves);

}  // namespace bookforge
