// What a node needs to know to tell quickly whether a move gives check: the squares from which
// each piece type would attack the enemy king, and the own pieces whose departure would
// uncover an attack by an own slider. Computed once per node instead of once per move.
#pragma once

#include "chess/board.h"

namespace bookforge::chess {

class CheckInfo {
 public:
  explicit CheckInfo(const Board& board);
  // Same answer as Board::gives_check(m) for a legal or pseudo-legal move.
  bool gives_check(const Board& board, Move m) const;

 private:
  Bitboard check_squares_[6];
  Bitboard discoverers_ = 0;
  Square king_;
};

}  // namespace bookforge::chess
