// Move generation. generate_legal gives exactly the legal moves; the search uses the staged
// pseudo-legal generators and checks legality with Board::is_legal_pseudo.
#pragma once

#include "engine/board.h"

namespace bookforge {

struct MoveList {
  Move moves[256];
  int count = 0;

  void push(Move m) { moves[count++] = m; }
  Move* begin() { return moves; }
  Move* end() { return moves + count; }
  const Move* begin() const { return moves; }
  const Move* end() const { return moves + count; }
  int size() const { return count; }
  bool contains(Move m) const;
};

enum class GenKind {
  kAll,       // every pseudo-legal move
  kCaptures,  // captures and all promotions (for quiescence)
  kQuiets,    // non-captures, non-promotions
  kEvasions   // pseudo-legal moves when in check
};

void generate_legal(const Board& board, MoveList& list);
void generate_pseudo(const Board& board, GenKind kind, MoveList& list);

}  // namespace bookforge
