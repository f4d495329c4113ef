#include "json/store_json.h"

#include <cmath>
#include <cstdio>

#include "base/hex.h"
#include "store/game_text.h"

namespace bookforge::json {
namespace {

// The API's ratings are whole numbers, as lichess's are.
Json whole_or_null(const std::optional<double>& value) {
  return value ? Json(std::lround(*value)) : Json(nullptr);
}

Json decimals_or_null(const std::optional<double>& value, int decimals) {
  return value ? fixed_decimals(*value, decimals) : Json(nullptr);
}

Json elo_or_null(uint16_t elo) { return elo ? Json(elo) : Json(nullptr); }

Json url_or_null(const std::string& site) { return site.empty() ? Json(nullptr) : Json(site); }

Json games_json(const std::vector<store::GameRecord>& games, size_t limit, Style style) {
  Json out = Json::array();
  for (const store::GameRecord& game : games)
    if (out.size() < limit) out.push_back(to_json(game, style));
  return out;
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

Json to_json(const store::GameRecord& g, Style style) {
  const std::string id = store::game_id(g.fingerprint);
  if (style == Style::kCli)
    return {{"id", id},
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
  return {{"id", id},
          {"winner", winner ? Json(winner) : Json(nullptr)},
          {"white", {{"name", outside_text(g.white)}, {"rating", elo_or_null(g.white_elo)}}},
          {"black", {{"name", outside_text(g.black)}, {"rating", elo_or_null(g.black_elo)}}},
          {"year", date ? Json(date / 10000) : Json(nullptr)},
          {"month", month},
          {"bookforge",
           {{"event", outside_text(g.event)}, {"date", outside_text(g.date)}, {"url", url_or_null(g.site)}}}};
}

Json to_json(const store::ExploredMove& m, const book::OpeningNames& names, Style style) {
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
  return {{"uci", m.uci},
          {"san", m.san},
          {"white", m.white},
          {"draws", m.draws},
          {"black", m.black},
          // Not in lichess's answer: every game of the move, with those without a result ("*"),
          // which white + draws + black leaves out.
          {"games", m.games},
          {"averageRating", whole_or_null(m.avg_rating)},
          {"averageOpponentRating", whole_or_null(m.avg_opponent_rating)},
          {"performance", whole_or_null(m.performance)},
          {"opening", opening_json(names, m.after_key, style)},
          {"game", nullptr},
          {"bookforge",
           {{"share", m.share_percent},
            {"firstYear", value_or_null(m.first_year)},
            {"lastYear", value_or_null(m.last_year)}}}};
}

Json to_json(const ExploredPosition& p, Style style) {
  const store::Exploration& x = p.exploration;
  uint64_t white = 0, draws = 0, black = 0;
  Json moves = Json::array();
  for (const store::ExploredMove& move : x.moves) {
    white += move.white;
    draws += move.draws;
    black += move.black;
    if (moves.size() < p.max_moves) moves.push_back(to_json(move, p.names, style));
  }
  Json top = games_json(p.top_games, p.max_top_games, style);
  Json recent = games_json(p.recent_games, p.max_recent_games, style);
  if (style == Style::kCli) {
    Json out = {{"key", hex64(x.key)}, {"filter", outside_text(p.filter.describe())}, {"games", x.games}};
    if (p.arrival) add_arrival(out, *p.arrival, style);
    out["moves"] = std::move(moves);
    out["top_games"] = std::move(top);
    out["recent_games"] = std::move(recent);
    return out;
  }
  Json extra = {{"key", hex64(x.key)},
                {"fen", p.board.fen()},
                {"games", x.games},
                {"unknownResults", x.games - (white + draws + black)},
                {"filter", outside_text(p.filter.describe())}};
  if (p.arrival) add_arrival(extra, *p.arrival, style);
  return {{"white", white},
          {"draws", draws},
          {"black", black},
          {"moves", std::move(moves)},
          {"topGames", std::move(top)},
          {"recentGames", std::move(recent)},
          {"opening", opening_json(p.names, p.board.key(), style)},
          {"bookforge", std::move(extra)}};
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
