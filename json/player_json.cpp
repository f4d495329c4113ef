#include "json/player_json.h"

#include <cmath>
#include <cstdio>
#include <string>

#include "base/hex.h"
#include "json/store_json.h"
#include "store/game_text.h"

namespace bookforge::json {
namespace {

std::string date_text(uint32_t rank) {  // store::date_rank back to "YYYY.MM.DD", "??" unknown
  if (rank == 0) return "";
  char text[16];
  const unsigned month = rank / 100 % 100, day = rank % 100;
  std::snprintf(text, sizeof text, "%04u.", rank / 10000);
  std::string out = text;
  out += month ? (std::snprintf(text, sizeof text, "%02u.", month), std::string(text)) : std::string("??.");
  out += day ? (std::snprintf(text, sizeof text, "%02u", day), std::string(text)) : std::string("??");
  return out;
}

std::string modes_text(uint32_t modes) {
  if (modes == 0) return "all";
  std::string out;
  if (modes >> uint32_t(store::GameMode::kRated) & 1) out = "rated";
  if (modes >> uint32_t(store::GameMode::kCasual) & 1) out += out.empty() ? "casual" : ",casual";
  return out;
}

Json move_json(const store::PlayerMove& m, const book::OpeningNames& names, Style style) {
  if (style == Style::kCli) {
    auto decimals = [](const std::optional<double>& v, int n) {
      return v ? fixed_decimals(*v, n) : Json(nullptr);
    };
    return {{"uci", m.uci},
            {"san", m.san},
            {"games", m.games},
            {"white", m.white},
            {"draws", m.draws},
            {"black", m.black},
            {"score", fixed_decimals(m.score_percent, 2)},
            {"avg_opponent_rating", decimals(m.avg_opponent_rating, 1)},
            {"performance", decimals(m.performance, 0)},
            {"last_played", m.last_date ? Json(date_text(m.last_date)) : Json(nullptr)},
            {"game", m.only_game ? Json(store::game_id(m.only_game->fingerprint)) : Json(nullptr)},
            {"opening", opening_json(names, m.after_key, style)}};
  }
  Json out{{"uci", m.uci}, {"san", m.san}};
  // As lichess's: left out, not null, when no opponent was rated.
  if (m.avg_opponent_rating) out["averageOpponentRating"] = std::lround(*m.avg_opponent_rating);
  if (m.performance) out["performance"] = std::lround(*m.performance);
  out["white"] = m.white;
  out["draws"] = m.draws;
  out["black"] = m.black;
  out["game"] = m.only_game ? to_json(*m.only_game, style, /*with_kind=*/true) : Json(nullptr);
  out["opening"] = opening_json(names, m.after_key, style);
  return out;
}

}  // namespace

Json to_json(const PlayerPosition& p, Style style) {
  const store::PlayerExploration& x = p.exploration;
  Json moves = Json::array();
  for (size_t i = 0; i < x.moves.size() && i < p.max_moves; ++i)
    moves.push_back(move_json(x.moves[i], p.names, style));
  Json games = Json::array();
  for (size_t i = 0; i < x.recent_games.size() && i < p.max_recent_games; ++i) {
    Json g = to_json(x.recent_games[i], style, /*with_kind=*/true);
    Json out{{style == Style::kCli ? "move" : "uci", x.recent_game_moves[i]}};
    out.update(g);
    games.push_back(std::move(out));
  }
  if (style == Style::kCli)
    return {{"key", hex64(x.key)},
            {"player", outside_text(p.query.player)},
            {"color", p.query.as_white ? "white" : "black"},
            {"filter", outside_text(p.query.filter.describe())},
            {"modes", modes_text(p.query.modes)},
            {"player_games", x.player_games},
            {"games_without_moves", x.games_without_moves},
            {"games", x.games},
            {"white", x.white},
            {"draws", x.draws},
            {"black", x.black},
            {"moves", std::move(moves)},
            {"recent_games", std::move(games)}};
  return {{"white", x.white},
          {"draws", x.draws},
          {"black", x.black},
          {"moves", std::move(moves)},
          {"recentGames", std::move(games)},
          {"opening", opening_json(p.names, x.key, style)},
          // lila's place in its indexing queue: a store is indexed when its games are added.
          {"queuePosition", 0},
          {"bookforge",
           {{"key", hex64(x.key)},
            {"fen", p.board.fen()},
            {"games", x.games},
            {"playerGames", x.player_games},
            {"gamesWithoutMoves", x.games_without_moves}}}};
}

Json to_json(const store::PlayerName& player) {
  return {{"name", outside_text(player.name)}, {"games", player.games}};
}

}  // namespace bookforge::json
