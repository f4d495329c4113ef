#include "chess/perft.h"

#include <cassert>

#include "chess/movegen.h"

namespace bookforge::chess {

// Bulk counting: at depth 1 the size of the legal move list is the answer, so the last ply is
// never played.
uint64_t perft(Board& board, int depth) {
  if (depth <= 0) return 1;
  MoveList list;
  generate_legal(board, list);
  if (depth == 1) return uint64_t(list.size());
  uint64_t nodes = 0;
  UndoInfo undo;
  for (Move m : list) {
    board.make_move(m, undo);
    assert(board.is_ok());
    nodes += perft(board, depth - 1);
    board.unmake_move(m, undo);
  }
  return nodes;
}

std::vector<std::pair<Move, uint64_t>> perft_divide(Board& board, int depth) {
  std::vector<std::pair<Move, uint64_t>> counts;
  if (depth <= 0) return counts;
  MoveList list;
  generate_legal(board, list);
  UndoInfo undo;
  for (Move m : list) {
    board.make_move(m, undo);
    counts.emplace_back(m, perft(board, depth - 1));
    board.unmake_move(m, undo);
  }
  return counts;
}

}  // namespace bookforge::chess
