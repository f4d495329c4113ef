#include "book/book_walk.h"

#include <deque>
#include <unordered_set>
#include <utility>

#include "engine/san.h"

namespace bookforge::book {

WalkStats walk_book(const BookMovesFn& moves_of, const VisitFn& visit, const IllegalMoveFn& illegal,
                    const Board& start, int max_depth) {
  WalkStats stats;
  std::unordered_set<uint64_t> seen{start.key()};
  std::deque<std::pair<Board, int>> queue{{start, 0}};
  std::vector<uint16_t> moves;
  while (!queue.empty()) {
    auto [board, depth] = std::move(queue.front());
    queue.pop_front();
    moves.clear();
    moves_of(board.key(), moves);
    if (moves.empty()) continue;
    ++stats.positions;
    stats.max_depth = std::max(stats.max_depth, depth);
    visit(board, depth);
    if (max_depth > 0 && depth >= max_depth) continue;
    for (uint16_t pg : moves) {
      Move m = polyglot_to_move(board, pg);
      if (m == Move::none()) {
        ++stats.illegal_moves;
        if (illegal) illegal(board, pg);
        continue;
      }
      Board child = board;
      UndoInfo undo;
      child.make_move(m, undo);
      if (seen.insert(child.key()).second) queue.emplace_back(child, depth + 1);
    }
  }
  return stats;
}

}  // namespace bookforge::book
