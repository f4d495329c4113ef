// Perft: counts the leaf nodes of the legal move tree (bulk counting at the last ply).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "chess/board.h"

namespace bookforge::chess {

uint64_t perft(Board& board, int depth);
// Node counts per root move, in generation order.
std::vector<std::pair<Move, uint64_t>> perft_divide(Board& board, int depth);

}  // namespace bookforge::chess
