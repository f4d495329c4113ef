#include "book/exits.h"

#include <algorithm>
#include <unordered_set>

#include "book/polyglot/walk.h"
#include "book/position_searcher.h"
#include "chess/movegen.h"
#include "chess/polyglot_move.h"
#include "chess/san.h"
#include "engine/search.h"

namespace bookforge::book {

Status ExitOptions::validate() const {
  if ((depth > 0) == (nodes > 0)) return Error{"exits need exactly one of a depth or a node limit"};
  if (depth < 0 || depth >= engine::kMaxPly)
    return Error{"exit depth must be 1.." + std::to_string(engine::kMaxPly - 1)};
  if (threads < 1) return Error{"exits need at least one thread"};
  if (eval_min && eval_max && *eval_min > *eval_max)
    return Error{"the exit band is empty: its minimum " + std::to_string(*eval_min) +
                 " is above its maximum " + std::to_string(*eval_max)};
  return ok_status();
}

namespace {

// The positions the book's moves lead to that have no book move, each once, at the shortest
// distance the walk (breadth first) reaches them.
std::vector<ExitPosition> find_exits(const PolyglotBook& book) {
  auto moves_of = [&](uint64_t key, std::vector<uint16_t>& moves) {
    auto [first, last] = book.range(key);
    for (size_t i = first; i < last; ++i) moves.push_back(book.entry(i).move);
  };
  std::vector<ExitPosition> exits;
  std::unordered_set<uint64_t> seen;
  std::vector<uint16_t> moves;
  walk_book(moves_of, [&](const chess::Board& board, int depth) {
    moves.clear();
    moves_of(board.key(), moves);
    for (uint16_t pg : moves) {
      const chess::Move move = chess::polyglot_to_move(board, pg);
      if (!move.is_ok()) continue;  // the walk counts it as illegal
      chess::Board child = board;
      chess::UndoInfo undo;
      child.make_move(move, undo);
      auto [first, last] = book.range(child.key());
      if (first != last || !seen.insert(child.key()).second) continue;
      // A game that is over is no start for a game.
      chess::MoveList legal;
      chess::generate_legal(child, legal);
      if (legal.size() == 0) continue;
      exits.push_back({child, depth + 1, 0, 0});
    }
  });
  return exits;
}

RescoreLimits search_limits(const ExitOptions& options) {
  return {options.depth, options.nodes, options.engine_path, options.hash_mb};
}

}  // namespace

Status check_exit_engine(const ExitOptions& options) {
  return PositionSearcher(search_limits(options)).start();
}

Result<std::vector<ExitPosition>> book_exits(const PolyglotBook& book, const ExitOptions& options,
                                             ExitStats& stats) {
  if (Status s = options.validate(); !s.ok()) return s.error();
  std::vector<ExitPosition> exits = find_exits(book);
  stats.exits = exits.size();
  exits.erase(exits.begin() + ptrdiff_t(options.batch.end(stats.exits)), exits.end());
  exits.erase(exits.begin(), exits.begin() + ptrdiff_t(options.batch.begin(stats.exits)));
  stats.in_batch = exits.size();

  // Each thread has its own engine and clears it for every position, so a score depends on the
  // position and the limits alone.
  Status searched = search_each(
      exits.size(), search_limits(options), options.threads, [&](PositionSearcher& searcher, size_t i) {
        Result<engine::SearchResult> r = searcher.search(exits[i].board, {}, 1, true);
        if (!r.ok())
          return Status(r.error());  // an external engine's errors name it (a search's, the position too)
        // Every searcher runs the same engine: the first position's names it.
        if (i == 0) stats.engine = searcher.external_name();
        const engine::Score own = r->lines.empty() ? 0 : r->lines[0].score;
        exits[i].white = exits[i].board.side_to_move() == chess::kWhite ? own : engine::Score(-own);
        exits[i].depth = r->depth;
        return ok_status();
      });
  if (!searched.ok()) return searched.error();

  std::erase_if(exits, [&](const ExitPosition& e) {
    return (options.eval_min && e.white < *options.eval_min) ||
           (options.eval_max && e.white > *options.eval_max);
  });
  stats.kept = exits.size();
  return exits;
}

std::string exits_epd(const std::vector<ExitPosition>& exits, const std::string& engine) {
  // The name sits inside the comment's quotes, which it must not close.
  std::string source = "bookforge exit, ";
  if (!engine.empty()) source += engine + ", ";
  std::replace(source.begin(), source.end(), '"', '\'');
  std::string out;
  for (const ExitPosition& e : exits) {
    const std::string fen = e.board.fen();
    // The FEN's first four fields (placement, side, castling, en passant); the move counters
    // become hmvc and fmvn.
    size_t end = 0;
    for (int field = 0; field < 4; ++field) end = fen.find(' ', field == 0 ? 0 : end + 1);
    const engine::Score own = e.board.side_to_move() == chess::kWhite ? e.white : engine::Score(-e.white);
    out += fen.substr(0, end) + " ce " + std::to_string(own) + "; acd " + std::to_string(e.depth) +
           "; hmvc " + std::to_string(e.board.halfmove_clock()) + "; fmvn " +
           std::to_string(e.board.fullmove_number()) + "; c0 \"" + source + "ply " + std::to_string(e.ply) +
           ", white " + std::to_string(e.white) + " cp\";\n";
  }
  return out;
}

}  // namespace bookforge::book
