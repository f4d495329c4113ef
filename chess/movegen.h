// Move generation. generate_legal gives exactly the legal moves; the search uses the staged
// pseudo-legal generators and checks legality with Board::is_legal_pseudo.
#pragma once

#include "chess/board.h"

namespace bookforge::chess {

// Room for every move of any position from_fen accepts: at most 16 pieces a side, so at most
// 15 queens (27 moves each at best) plus a king and two castlings -- 415. (Reachable positions
// have at most 218 legal moves, but the fuzzer does not stick to reachable positions.)
inline constexpr int kMaxMoves = 512;

struct MoveList {
  // The anonymous union leaves the array uninitialised: lists are built at every node, and
  // zero-filling them would cost more than generating the moves.
  union {
    Move moves[kMaxMoves];
  };
  int count = 0;

  MoveList() {}

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

}  // namespace bookforge::chess
