// Static exchange evaluation: the material balance of the capture sequence a move starts on
// its target square, each side always recapturing with its least valuable piece and free to
// stop when continuing would lose.
#pragma once

#include "chess/board.h"
#include "engine/score.h"

namespace bookforge::engine {

// The exchange value of `m` in centipawns (kPieceValue). Castling scores 0; en passant and
// promotions are counted. Pins are ignored, as usual for SEE.
Score see(const chess::Board& board, chess::Move m);

// see(board, m) >= threshold, the form every caller needs.
inline bool see_ge(const chess::Board& board, chess::Move m, Score threshold) {
  return see(board, m) >= threshold;
}

}  // namespace bookforge::engine
