#include "json/store_json.h"

#include <cmath>
#include <cstdio>

#include "base/hex.h"
#include "store/game_text.h"

namespace bookforge::json {
namespace {

Json decimals_or_null(const std::optional<double>& value, int decimals) {
  return value ? fixed_decimals(*value, decimals) : Json(nullptr);
}

// lichess's spelling of a speed code (counts/slice.h): "ultraBullet", "bullet", ...
std::string api_speed(int code) {
  std::string name = counts::speed_code_name(code);
  if (name == "ultrabullet") name = "ultraBullet";
  return name;
}

Json elo_or_null(uint16_t elo) { return elo ? Json(elo) : Json(nullptr); }

Json url_or_null(const std::string& site) { return site.empty() ? Json(nullptr) : Json(site); }

// lichess's {"name", "rating"}; no rating where the game has none.
Json api_player(const std::string& name, uint16_t elo) {
  Json player = {{"name", outside_text(name)}};
  if (elo) player["rating"] = elo;
  return player;
}

// A lichess figure: a whole number, or left out when unknown.
void set_whole(Json& out, const char* name, const std::optional<double>& value) {
  if (value) out[name] = std::lround(*value);
}

Json games_json(const std::vector<store::GameRecord>& games, size_t limit, Style style) {
  Json out = Json::array();
  for (const store::GameRecord& game : games)
    if (out.size() < limit) out.push_back(to_json(game, style));
  return out;
}

// lichess's list entries: the move the game played from the position, then the game. Games
// whose move the store cannot tell are left out.
Json api_games_json(const std::vector<store::GameRecord>& games, size_t limit, const store::GameMoves* moves,
                    bool with_kind) {
  Json out = Json::array();
  if (!moves) return out;
  for (const store::GameRecord& game : games) {
    if (out.size() >= limit) break;
    const auto uci = moves->uci_by_fingerprint.find(game.fingerprint);
    if (uci == moves->uci_by_fingerprint.end()) continue;
    Json entry = {{"uci", uci->second}};
    const Json fields = to_json(game, Style::kApi, with_kind);
    for (auto field = fields.begin(); field != fields.end(); ++field) entry[field.key()] = *field;
    out.push_back(std::move(entry));
  }
  return out;
}

// The only game of a move, as lichess's "game" of a move played once; null otherwise.
Json only_game_json(const store::ExploredMove& move, const store::GameMoves* moves, bool with_kind) {
  if (!moves || move.games != 1) return nullptr;
  const auto only = moves->only_game_by_uci.find(move.uci);
  return only == moves->only_game_by_uci.end() ? Json(nullptr)
                                               : to_json(only->second, Style::kApi, with_kind);
}

// How the games came to a position reached by a line (store/explore.h): added to `out`.
void add_arrival(Json& out, const store::Arrival& arrival, Style style) {
  const bool cli = style == Style::kCli;
  out[cli ? "by_line" : "byLine"] = arrival.by_line;
  out[cli ? "by_other_orders" : "byOtherOrders"] = arrival.by_other_orders();
  out[cli ? "mostly_transposed" : "mostlyTransposed"] = arrival.mostly_transposed();
}

}  // namespace

Json opening_json(const book::OpeningNames& names, uint64_t key, Style style) {
  const book::OpeningName* name = names.find(key);
  if (style == Style::kCli) return name ? name->eco + " " + name->name : std::string();
  if (!name) return nullptr;
  return {{"eco", name->eco}, {"name", name->name}};
}

Json to_json(const store::GameRecord& g, Style style, bool with_kind) {
  if (style == Style::kCli)
    return {{"id", store::game_id(g.fingerprint)},
            {"white", outside_text(g.white)},
            {"black", outside_text(g.black)},
            {"white_elo", elo_or_null(g.white_elo)},
            {"black_elo", elo_or_null(g.black_elo)},
            {"result", g.result()},
            {"date", outside_text(g.date)},
            {"event", outside_text(g.event)},
            {"url", url_or_null(g.site)},
            {"source", g.source},
            {"number", g.number},
            {"offset", g.offset}};
  const char* winner = g.outcome == pgn::Outcome::kWhiteWins   ? "white"
                       : g.outcome == pgn::Outcome::kBlackWins ? "black"
                                                               : nullptr;
  const uint32_t date = store::date_rank(g.date);  // yyyymmdd, unknown parts 0
  Json month = nullptr;
  if (date / 100 % 100 != 0) {
    char text[16];
    std::snprintf(text, sizeof text, "%04u-%02u", date / 10000, date / 100 % 100);
    month = text;
  }
  Json out = {{"id", store::short_game_id(g.fingerprint)}, {"winner", winner ? Json(winner) : Json(nullptr)}};
  // A lichess game (its Event says Rated or Casual) has both, as lichess's games do; its speed
  // from its TimeControl, by the rule of the speeds filter.
  if (with_kind && g.mode != store::GameMode::kUnknown) {
    if (const int speed = counts::slice_speed(g.slice); speed != 0) out["speed"] = api_speed(speed);
    out["mode"] = g.mode == store::GameMode::kRated ? "rated" : "casual";
  }
  out["white"] = api_player(g.white, g.white_elo);
  out["black"] = api_player(g.black, g.black_elo);
  if (date) out["year"] = date / 10000;
  out["month"] = month;
  out["bookforge"] = {{"id", store::game_id(g.fingerprint)},
                      {"event", outside_text(g.event)},
                      {"date", outside_text(g.date)},
                      {"url", url_or_null(g.site)}};
  return out;
}

Json to_json(const store::ExploredMove& m, const book::OpeningNames& names, Style style, const Json& game) {
  if (style == Style::kCli)
    return {{"uci", m.uci},
            {"san", m.san},
            {"games", m.games},
            {"white", fixed_decimals(m.white_percent, 2)},
            {"draws", fixed_decimals(m.draws_percent, 2)},
            {"black", fixed_decimals(m.black_percent, 2)},
            {"share", fixed_decimals(m.share_percent, 2)},
            {"avg_rating", decimals_or_null(m.avg_rating, 1)},
            {"avg_opponent_rating", decimals_or_null(m.avg_opponent_rating, 1)},
            {"performance", decimals_or_null(m.performance, 0)},
            {"first_year", value_or_null(m.first_year)},
            {"last_year", value_or_null(m.last_year)},
            {"score", fixed_decimals(m.score_percent, 2)},
            {"opening", opening_json(names, m.after_key, style)}};
  Json out = {{"uci", m.uci},
              {"san", m.san},
              {"white", m.white},
              {"draws", m.draws},
              {"black", m.black},
              // Not in lichess's answer: every game of the move, with those without a result
              // ("*"), which white + draws + black leaves out.
              {"games", m.games}};
  set_whole(out, "averageRating", m.avg_rating);
  set_whole(out, "averageOpponentRating", m.avg_opponent_rating);
  set_whole(out, "performance", m.performance);
  out["opening"] = opening_json(names, m.after_key, style);
  out["game"] = game;
  out["bookforge"] = {{"share", m.share_percent},
                      {"firstYear", value_or_null(m.first_year)},
                      {"lastYear", value_or_null(m.last_year)}};
  return out;
}

Json to_json(const ExploredPosition& p, Style style) {
  const store::Exploration& x = p.exploration;
  uint64_t white = 0, draws = 0, black = 0;
  Json moves = Json::array();
  for (const store::ExploredMove& move : x.moves) {
    white += move.white;
    draws += move.draws;
    black += move.black;
    if (moves.size() < p.max_moves)
      moves.push_back(to_json(move, p.names, style, only_game_json(move, p.game_moves, p.with_kind)));
  }
  if (style == Style::kCli) {
    Json out = {{"key", hex64(x.key)}, {"filter", outside_text(p.filter.describe())}, {"games", x.games}};
    if (p.arrival) add_arrival(out, *p.arrival, style);
    out["moves"] = std::move(moves);
    out["top_games"] = games_json(p.top_games, p.max_top_games, style);
    out["recent_games"] = games_json(p.recent_games, p.max_recent_games, style);
    return out;
  }
  Json extra = {{"key", hex64(x.key)},
                {"fen", p.board.fen()},
                {"games", x.games},
                {"unknownResults", x.games - (white + draws + black)},
                {"filter", outside_text(p.filter.describe())}};
  if (p.arrival) add_arrival(extra, *p.arrival, style);
  Json out = {{"white", white},
              {"draws", draws},
              {"black", black},
              {"moves", std::move(moves)},
              {"topGames", api_games_json(p.top_games, p.max_top_games, p.game_moves, p.with_kind)}};
  if (p.with_recent_games)
    out["recentGames"] = api_games_json(p.recent_games, p.max_recent_games, p.game_moves, p.with_kind);
  out["opening"] = opening_json(p.names, p.board.key(), style);
  out["bookforge"] = std::move(extra);
  return out;
}

Json to_json(const store::TreeStats& t) {
  Json sources = Json::array();
  for (const store::SourceRecord& s : t.sources)
    sources.push_back({{"name", outside_text(s.name)},
                       {"size", value_or_null(s.size)},
                       {"hash", value_or_null(s.hash)},
                       {"games", s.games},
                       {"filters", outside_text(s.settings.filters)},
                       {"max_ply", s.settings.max_ply},
                       {"count_repeats", s.settings.count_repeats},
                       {"added", s.added}});
  return {
      {"positions", t.positions}, {"moves", t.moves}, {"games", t.games}, {"sources", std::move(sources)}};
}

}  // namespace bookforge::json
