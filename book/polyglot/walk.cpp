#include "book/polyglot/walk.h"

#include <deque>
#include <unordered_set>
#include <utility>

#include "chess/movegen.h"
#include "chess/san.h"

namespace bookforge::book {

WalkStats walk_book(const BookMovesFn& moves_of, const VisitFn& visit, const IllegalMoveFn& illegal,
                    const WalkOptions& options) {
  WalkStats stats;
  std::unordered_set<uint64_t> seen{options.start.key()};
  std::deque<std::pair<chess::Board, int>> queue{{options.start, 0}};
  std::vector<uint16_t> moves;
  chess::MoveList legal;
  auto follow = [&](const chess::Board& board, chess::Move m, int depth) {
    chess::Board child = board;
    chess::UndoInfo undo;
    child.make_move(m, undo);
    if (seen.insert(child.key()).second) queue.emplace_back(child, depth + 1);
  };
  while (!queue.empty()) {
    auto [board, depth] = std::move(queue.front());
    queue.pop_front();
    if (options.pass_through && board.side_to_move() == *options.pass_through) {
      if (options.max_depth > 0 && depth >= options.max_depth) continue;
      legal.count = 0;
      chess::generate_legal(board, legal);
      for (chess::Move m : legal) follow(board, m, depth);
      continue;
    }
    moves.clear();
    moves_of(board.key(), moves);
    if (moves.empty()) continue;
    ++stats.positions;
    stats.max_depth = std::max(stats.max_depth, depth);
    visit(board, depth);
    if (options.max_depth > 0 && depth >= options.max_depth) continue;
    for (uint16_t pg : moves) {
      chess::Move m = chess::polyglot_to_move(board, pg);
      if (m == chess::Move::none()) {
        ++stats.illegal_moves;
        if (illegal) illegal(board, pg);
        continue;
      }
      follow(board, m, depth);
    }
  }
  return stats;
}

}  // namespace bookforge::book
