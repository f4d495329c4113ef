// Static evaluation: a tapered blend of a middlegame and an endgame score, each the sum of
// material, piece-square tables, pawn structure, passed pawns, mobility, king safety, threats
// and a few piece terms, weighted by how much non-pawn material is left.
#pragma once

#include "engine/board.h"
#include "engine/score.h"

namespace bookforge {

// Centipawns from the point of view of the side to move. Never a mate score.
Score evaluate(const Board& board);

// Material values for move ordering and SEE (the evaluation itself uses tapered values).
inline constexpr Score kPieceValue[7] = {100, 320, 330, 500, 950, 20000, 0};

}  // namespace bookforge
