// The player explorer's answer (store/player_explore.h) as JSON: db explore --player --json,
// and the server's /player.
#pragma once

#include <cstddef>
#include <limits>

#include "book/opening_names.h"
#include "chess/board.h"
#include "json/json.h"
#include "store/player_explore.h"

namespace bookforge::json {

struct PlayerPosition {
  const store::PlayerExploration& exploration;
  const store::PlayerQuery& query;
  const chess::Board& board;
  const book::OpeningNames& names;
  size_t max_moves = std::numeric_limits<size_t>::max();
  size_t max_recent_games = std::numeric_limits<size_t>::max();
};

// kCli: {"key", "player", "color", "filter", "modes", "player_games", "games_without_moves",
//        "games", "white", "draws", "black", "moves": [{"uci", "san", "games", "white", "draws",
//        "black" (counts), "score" (the player's percent, 2 decimals), "avg_opponent_rating" (1),
//        "performance" (0), "last_played" ("YYYY.MM.DD"), "game" (the id when one game played
//        it, else null), "opening"}], "recent_games": [{"move", ...a game of db explore}]}
// kApi: lichess's player answer: {"white", "draws", "black", "moves": [{"uci", "san",
//        "averageOpponentRating", "performance" (whole numbers, left out without a rated
//        opponent), "white", "draws", "black", "game" (when one game played it, else null),
//        "opening"}], "recentGames": [{"uci", ...a game}], "opening", "queuePosition": 0}
Json to_json(const PlayerPosition& position, Style style);

// A name suggestion (/api/players): {"name" (as stored), "games" (as White and as Black)}.
Json to_json(const store::PlayerName& player);

}  // namespace bookforge::json
