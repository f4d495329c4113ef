#include "book/polyglot/info.h"

#include <unordered_map>
#include <unordered_set>

#include "book/polyglot/walk.h"
#include "chess/san.h"

namespace bookforge::book {
namespace {

// Deeper lines than this are cut (a guard for the recursion on absurd books).
constexpr int kMaxLine = 4096;

// Longest book line from each position, memoized by key. A move back to a position already on
// the current line ends the line there. With such repetitions a memoized length can depend on
// the line it was first reached by, so then the result is a long line, not always the longest.
class LongestLine {
 public:
  explicit LongestLine(const PolyglotBook& book) : book_(book) {}

  std::vector<chess::Move> from(const chess::Board& start) {
    chess::Board board = start;
    length(board, 0);
    std::vector<chess::Move> line;
    for (;;) {
      auto it = memo_.find(board.key());
      if (it == memo_.end() || it->second.length == 0) break;
      chess::Move m = chess::polyglot_to_move(board, it->second.best);
      line.push_back(m);
      chess::UndoInfo undo;
      board.make_move(m, undo);
      if (line.size() > size_t(kMaxLine)) break;
    }
    return line;
  }

 private:
  struct Best {
    int length;
    uint16_t best;
  };

  int length(chess::Board& board, int depth) {
    uint64_t key = board.key();
    if (auto it = memo_.find(key); it != memo_.end()) return it->second.length;
    if (depth >= kMaxLine || !on_line_.insert(key).second) return 0;
    Best best{0, 0};
    auto [first, last] = book_.range(key);
    for (size_t i = first; i < last; ++i) {
      uint16_t pg = book_.entry(i).move;
      chess::Move m = chess::polyglot_to_move(board, pg);
      if (m == chess::Move::none()) continue;
      chess::UndoInfo undo;
      board.make_move(m, undo);
      int n = 1 + length(board, depth + 1);
      board.unmake_move(m, undo);
      if (n > best.length) best = {n, pg};
    }
    on_line_.erase(key);
    memo_[key] = best;
    return best.length;
  }

  const PolyglotBook& book_;
  std::unordered_map<uint64_t, Best> memo_;
  std::unordered_set<uint64_t> on_line_;
};

}  // namespace

BookInfo analyse_book(const PolyglotBook& book) {
  BookInfo info;
  info.entries = book.size();
  for (size_t i = 0; i < book.size(); ++i) {
    if (i == 0 || book.key_at(i) != book.key_at(i - 1)) ++info.positions;
    if (book.entry(i).weight == 0) ++info.zero_weight_entries;
  }
  auto moves_of = [&](uint64_t key, std::vector<uint16_t>& moves) {
    auto [first, last] = book.range(key);
    for (size_t i = first; i < last; ++i) moves.push_back(book.entry(i).move);
  };
  WalkStats walk = walk_book(moves_of, [](const chess::Board&, int) {});
  info.reachable_positions = walk.positions;
  info.deepest_reachable = walk.max_depth;
  info.illegal_entries = walk.illegal_moves;
  info.longest_line = LongestLine(book).from(chess::Board());
  return info;
}

}  // namespace bookforge::book
