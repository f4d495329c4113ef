#include "store/explore.h"

#include <algorithm>
#include <unordered_set>

#include "chess/polyglot_move.h"
#include "chess/san.h"
#include "store/slice_counts.h"

namespace bookforge::store {
namespace {

// The rows of a position over the slices `filter` accepts (rows with no game left out), with
// the first and last month of each.
Result<std::vector<FilteredCounts>> filtered_rows(Store& store, uint64_t key,
                                                  const counts::SliceFilter& filter) {
  Result<std::vector<StoredMove>> rows = store.moves_with_slices_at(key);
  if (!rows) return rows.error();
  std::vector<FilteredCounts> out;
  for (const StoredMove& row : *rows) {
    FilteredCounts f;
    if (!sum_slices(row.slices, row.total, filter, f))
      return Error{store.path() + ": damaged slices in the row of key " + std::to_string(key)};
    if (f.counts.games > 0) out.push_back(f);
  }
  return out;
}

}  // namespace

Result<Exploration> explore(Store& store, const chess::Board& board, const counts::SliceFilter& filter) {
  Result<std::vector<FilteredCounts>> rows = filtered_rows(store, board.key(), filter);
  if (!rows) return rows.error();
  Exploration out;
  out.key = board.key();
  const chess::Color us = board.side_to_move();
  chess::Board after = board;
  for (const FilteredCounts& filtered : *rows) {
    const counts::TallyEntry& row = filtered.counts;
    chess::Move m = chess::polyglot_to_move(board, row.move);
    if (m == chess::Move::none()) {
      ++out.foreign_rows;
      continue;
    }
    ExploredMove x;
    x.move = m;
    x.polyglot_move = row.move;
    x.uci = chess::move_to_uci(m);
    x.san = chess::move_to_san(board, m);
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
      const uint64_t wins = us == chess::kWhite ? x.white : x.black;
      x.score_percent = (double(wins) + 0.5 * double(x.draws)) * scale;
    }
    if (row.rated_games > 0) x.avg_rating = double(row.rating_sum) / double(row.rated_games);
    if (row.opponents_rated > 0) {
      x.avg_opponent_rating = double(row.opponent_rating_sum) / double(row.opponents_rated);
      if (decided > 0) {
        const double wins = double(us == chess::kWhite ? x.white : x.black);
        const double losses = double(us == chess::kWhite ? x.black : x.white);
        x.performance = *x.avg_opponent_rating + 400.0 * (wins - losses) / double(decided);
      }
    }
    x.first_year = counts::month_year(filtered.first_month);
    x.last_year = counts::month_year(filtered.last_month);
    chess::UndoInfo undo;
    after.make_move(m, undo);
    x.after_key = after.key();
    after.unmake_move(m, undo);
    out.games += x.games;
    out.moves.push_back(std::move(x));
  }
  for (ExploredMove& x : out.moves) x.share_percent = 100.0 * double(x.games) / double(out.games);
  std::sort(out.moves.begin(), out.moves.end(), [](const ExploredMove& a, const ExploredMove& b) {
    return a.games != b.games ? a.games > b.games : a.uci < b.uci;
  });
  return out;
}

Result<Arrival> arrival(Store& store, const chess::Board& parent, chess::Move last,
                        const Exploration& position, const counts::SliceFilter& filter) {
  Result<std::vector<FilteredCounts>> rows = filtered_rows(store, parent.key(), filter);
  if (!rows) return rows.error();
  Arrival a;
  a.reached = position.games;
  const uint16_t move = chess::move_to_polyglot(last);
  for (const FilteredCounts& row : *rows)
    if (row.counts.move == move) a.by_line += row.counts.games;
  return a;
}

Result<GameMoves> game_moves(Store& store, const Exploration& position,
                             const std::vector<GameRecord>& listed) {
  GameMoves out;
  std::unordered_set<uint64_t> unplaced;
  for (const GameRecord& game : listed) unplaced.insert(game.fingerprint);
  // Most played first, so the listed games are mostly placed after a few moves; past them only
  // the moves of one game are read, and of those only the top list: a position reached by one
  // game lists it there (and the same in its recent list).
  for (const ExploredMove& move : position.moves) {
    if (move.games != 1 && unplaced.empty()) continue;
    std::vector<GameRecord> next;
    for (Store::GameOrder order : {Store::GameOrder::kTopRated, Store::GameOrder::kRecent}) {
      Result<std::vector<GameRecord>> games = store.games_at(move.after_key, order);
      if (!games) return games.error();
      next.insert(next.end(), games->begin(), games->end());
      if (order == Store::GameOrder::kTopRated && games->size() == 1) break;  // the one game
    }
    for (const GameRecord& game : next)
      if (unplaced.erase(game.fingerprint) > 0) out.uci_by_fingerprint.emplace(game.fingerprint, move.uci);
    if (!next.empty() && std::all_of(next.begin(), next.end(), [&](const GameRecord& game) {
          return game.fingerprint == next.front().fingerprint;
        }))
      out.only_game_by_uci.emplace(move.uci, next.front());
  }
  return out;
}

Result<std::vector<uint64_t>> stored_fingerprints(Store& store, FingerprintRange range) {
  return store.fingerprints_between(range.first, range.last);
}

}  // namespace bookforge::store
