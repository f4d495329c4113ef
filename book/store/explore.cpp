#include "book/store/explore.h"

#include <algorithm>

#include "engine/san.h"

namespace bookforge::store {

Result<Exploration> explore(Store& store, const Board& board) {
  Result<std::vector<book::TallyEntry>> rows = store.moves_at(board.key());
  if (!rows) return rows.error();
  Exploration out;
  out.key = board.key();
  const Color us = board.side_to_move();
  Board after = board;
  for (const book::TallyEntry& row : *rows) {
    Move m = polyglot_to_move(board, row.move);
    if (m == Move::none()) {
      ++out.foreign_rows;
      continue;
    }
    ExploredMove x;
    x.move = m;
    x.polyglot_move = row.move;
    x.uci = move_to_uci(m);
    x.san = move_to_san(board, m);
    x.games = row.games;
    x.white = row.white_wins;
    x.draws = row.draws;
    x.black = row.black_wins;
    const uint64_t decided = x.white + x.draws + x.black;
    if (decided > 0) {
      const double scale = 100.0 / double(decided);
      x.white_percent = double(x.white) * scale;
      x.draws_percent = double(x.draws) * scale;
      x.black_percent = double(x.black) * scale;
      const uint64_t wins = us == kWhite ? x.white : x.black;
      x.score_percent = (double(wins) + 0.5 * double(x.draws)) * scale;
    }
    if (row.rated_games > 0) x.avg_rating = double(row.rating_sum) / double(row.rated_games);
    UndoInfo undo;
    after.make_move(m, undo);
    x.after_key = after.key();
    after.unmake_move(m, undo);
    out.games += x.games;
    out.moves.push_back(std::move(x));
  }
  std::sort(out.moves.begin(), out.moves.end(), [](const ExploredMove& a, const ExploredMove& b) {
    return a.games != b.games ? a.games > b.games : a.uci < b.uci;
  });
  return out;
}

Result<Arrival> arrival(Store& store, const Board& parent, Move last, const Exploration& position) {
  Result<std::vector<book::TallyEntry>> rows = store.moves_at(parent.key());
  if (!rows) return rows.error();
  Arrival a;
  a.reached = position.games;
  const uint16_t move = move_to_polyglot(last);
  for (const book::TallyEntry& row : *rows)
    if (row.move == move) a.by_line += row.games;
  return a;
}

}  // namespace bookforge::store
