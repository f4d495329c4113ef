#include "json/novelty_json.h"

#include "json/read_json.h"
#include "json/store_json.h"

namespace bookforge::json {

Json to_json(const store::PathMove& m) {
  return {{"ply", m.ply},
          {"move_number", m.move_number},
          {"side", m.black_moves ? "black" : "white"},
          {"san", m.move.san},
          {"uci", m.move.uci},
          {"position_games", m.position_games},
          {"games", m.move.games},
          {"white", m.move.white},
          {"draws", m.move.draws},
          {"black", m.move.black}};
}

Json to_json(const store::GameNovelty& g) {
  Json path = Json::array();
  for (const store::PathMove& m : g.path) path.push_back(to_json(m));
  Json top = Json::array();
  for (const store::GameRecord& record : g.top_games) top.push_back(to_json(record, Style::kCli));
  // The game's own fields as a stored game's (without the id and place a stored game has).
  Json out = to_json(g.game, Style::kCli);
  for (const char* stored_only : {"id", "source", "number", "offset"}) out.erase(stored_only);
  Json novelty = g.left_tree ? path.back() : Json(nullptr);
  Json head = {{"file", outside_text(g.file)}, {"game", g.game.number}};
  head.update(out);
  head["left_tree"] = g.left_tree;
  head["reached_max_ply"] = g.reached_max_ply;
  head["novelty"] = std::move(novelty);
  head["path"] = std::move(path);
  head["top_games"] = std::move(top);
  return head;
}

Json to_json(const NoveltyDocument& d) {
  Json games = Json::array();
  for (const store::GameNovelty& g : d.games) games.push_back(to_json(g));
  Json bad = Json::array();
  for (const pgn::BadGame& b : d.report.read.bad_examples) bad.push_back(to_json(b));
  return {{"filter", outside_text(d.filter.describe())},
          {"min_games", d.min_games},
          {"max_ply", d.report.max_ply > 0 ? Json(d.report.max_ply) : Json(nullptr)},
          {"games", std::move(games)},
          {"bad_games", std::move(bad)}};
}

}  // namespace bookforge::json
