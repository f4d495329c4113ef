#include "serve/explorer_json.h"

#include <cmath>
#include <cstdio>

#include "book/polyglot/format.h"
#include "store/game_text.h"

namespace bookforge::serve {
namespace {

// Ratings are whole numbers in lichess's answer.
nlohmann::ordered_json rounded_or_null(std::optional<double> rating) {
  if (!rating) return nullptr;
  return std::lround(*rating);
}

template <class T>
nlohmann::ordered_json value_or_null(const std::optional<T>& value) {
  if (!value) return nullptr;
  return *value;
}

// What the store says of a move and lichess has no field for.
nlohmann::ordered_json move_extra_json(const store::ExploredMove& move) {
  return {{"share", move.share_percent},
          {"firstYear", value_or_null(move.first_year)},
          {"lastYear", value_or_null(move.last_year)}};
}

nlohmann::ordered_json player_json(const std::string& name, uint16_t elo) {
  return {{"name", name}, {"rating", elo ? nlohmann::ordered_json(elo) : nlohmann::ordered_json(nullptr)}};
}

// A game of a position's lists, as lichess lists its top games.
nlohmann::ordered_json game_json(const store::GameRecord& g) {
  const char* winner = g.outcome == pgn::Outcome::kWhiteWins   ? "white"
                       : g.outcome == pgn::Outcome::kBlackWins ? "black"
                                                               : nullptr;
  const uint32_t date = store::date_rank(g.date);  // yyyymmdd, unknown parts 0
  nlohmann::ordered_json month = nullptr;
  if (date / 100 % 100 != 0) {
    char text[16];
    std::snprintf(text, sizeof text, "%04u-%02u", date / 10000, date / 100 % 100);
    month = text;
  }
  return {{"id", store::game_id(g.fingerprint)},
          {"winner", winner ? nlohmann::ordered_json(winner) : nlohmann::ordered_json(nullptr)},
          {"white", player_json(g.white, g.white_elo)},
          {"black", player_json(g.black, g.black_elo)},
          {"year", date ? nlohmann::ordered_json(date / 10000) : nlohmann::ordered_json(nullptr)},
          {"month", month},
          {"bookforge",
           {{"event", g.event},
            {"date", g.date},
            {"url", g.site.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(g.site)}}}};
}

nlohmann::ordered_json games_json(const std::vector<store::GameRecord>& games, int limit) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const store::GameRecord& g : games)
    if (int(out.size()) < limit) out.push_back(game_json(g));
  return out;
}

}  // namespace

nlohmann::ordered_json opening_json(const book::OpeningNames& names, uint64_t key) {
  const book::OpeningName* name = names.find(key);
  if (!name) return nullptr;
  return {{"eco", name->eco}, {"name", name->name}};
}

nlohmann::ordered_json explorer_json(const store::Exploration& exploration,
                                     const std::optional<store::Arrival>& arrival, const chess::Board& board,
                                     const book::OpeningNames& names, const ExplorerRequest& request,
                                     const PositionGames& games) {
  uint64_t white = 0, draws = 0, black = 0;
  nlohmann::ordered_json moves = nlohmann::ordered_json::array();
  for (const store::ExploredMove& move : exploration.moves) {
    white += move.white;
    draws += move.draws;
    black += move.black;
    if (moves.size() >= size_t(request.max_moves)) continue;
    moves.push_back({{"uci", move.uci},
                     {"san", move.san},
                     {"white", move.white},
                     {"draws", move.draws},
                     {"black", move.black},
                     // Not in lichess's answer: every game of the move, with those without a
                     // result ("*"), which white + draws + black leaves out.
                     {"games", move.games},
                     {"averageRating", rounded_or_null(move.avg_rating)},
                     {"averageOpponentRating", rounded_or_null(move.avg_opponent_rating)},
                     {"performance", rounded_or_null(move.performance)},
                     {"opening", opening_json(names, move.after_key)},
                     {"game", nullptr},
                     {"bookforge", move_extra_json(move)}});
  }
  nlohmann::ordered_json extra = {{"key", book::hex_key(exploration.key)},
                                  {"fen", board.fen()},
                                  {"games", exploration.games},
                                  {"unknownResults", exploration.games - (white + draws + black)},
                                  {"filter", request.filter.describe()}};
  if (arrival) {
    extra["byLine"] = arrival->by_line;
    extra["byOtherOrders"] = arrival->by_other_orders();
    extra["mostlyTransposed"] = arrival->mostly_transposed();
  }
  return {{"white", white},
          {"draws", draws},
          {"black", black},
          {"moves", std::move(moves)},
          {"topGames", games_json(games.top, request.top_games)},
          {"recentGames", games_json(games.recent, request.recent_games)},
          {"opening", opening_json(names, board.key())},
          {"bookforge", std::move(extra)}};
}

}  // namespace bookforge::serve
