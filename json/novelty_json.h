// Where games left the store's tree (store/novelty.h), as `db novelty --json` prints it.
#pragma once

#include <cstdint>
#include <vector>

#include "counts/slice.h"
#include "json/json.h"
#include "store/novelty.h"

namespace bookforge::json {

// {"ply" (1 for the first move), "move_number", "side" ("white" | "black"), "san", "uci", "position_games",
// "games",
//  "white", "draws", "black"}: counts, not percentages (white + draws + black leaves out the
// games without a result).
Json to_json(const store::PathMove& move);

// {"file", "game" (its number in the file), "white", "black", "white_elo", "black_elo",
//  "result", "date", "event", "url", "left_tree", "reached_max_ply", "novelty" (the last move
//  of "path", null when the game stayed in the tree), "path": [move...], "top_games": [the
//  games of db explore --json's "top_games"]}
Json to_json(const store::GameNovelty& game);

// The whole answer: the games in input order and every bad game.
struct NoveltyDocument {
  const counts::SliceFilter& filter;
  uint64_t min_games = 1;
  const std::vector<store::GameNovelty>& games;
  const store::NoveltyReport& report;
};
// {"filter", "min_games", "max_ply" (the store's, null for none), "games": [game...],
//  "bad_games": [{"file", "game", "line", "reason", "detail"}]}
Json to_json(const NoveltyDocument& document);

}  // namespace bookforge::json
