// The store as JSON: an explored position with its moves and games (db explore --json and the
// server's /api/explorer, /masters, /lichess), a game of its lists, and its summary (db stats).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "book/opening_names.h"
#include "chess/board.h"
#include "counts/slice.h"
#include "json/json.h"
#include "store/explore.h"
#include "store/game_record.h"
#include "store/store.h"

namespace bookforge::json {

// The opening the table names for a position. kCli: "ECO name", "" when unnamed; kApi:
// {"eco", "name"}, null when unnamed.
Json opening_json(const book::OpeningNames& names, uint64_t key, Style style);

// A game of a position's top or recent list.
// kCli: {"id", "white", "black", "white_elo", "black_elo", "result", "date", "event", "url",
//        "source", "number", "offset"}, unknown ratings and URLs null.
// kApi: lichess's game: {"id" (8 characters: store/game_record.h's short_game_id), "winner",
//        "speed" and "mode" (with_kind, for a lichess game: store/game_record.h's GameMode),
//        "white": {"name", "rating"}, "black": {...}, "year", "month",
//        "bookforge": {"id" (db explore's), "event", "date", "url"}}. A rating or a year not
//        known is left out (lichess always knows them); an unknown month or URL is null.
Json to_json(const store::GameRecord& game, Style style, bool with_kind = false);

// A move of an explored position (store/explore.h says what the figures are).
// kCli: {"uci", "san", "games", "white", "draws", "black" (percent of the games with a result,
//        2 decimals), "share" (2), "avg_rating" (1), "avg_opponent_rating" (1), "performance"
//        (0), "first_year", "last_year", "score" (2), "opening"}
// kApi: lichess's {"uci", "san", "white", "draws", "black" (counts), "games" (with those
//        without a result), "averageRating", "averageOpponentRating", "performance" (whole
//        numbers), "opening", "game" (null unless set), "bookforge": {"share", "firstYear",
//        "lastYear"}}
// Figures that need rated or dated games are null without them; in kApi the three lichess
// figures are left out instead, as lichess leaves them out.
Json to_json(const store::ExploredMove& move, const book::OpeningNames& names, Style style,
             const Json& game = nullptr);

// An explored position with how its games came there (with a line walked), its moves and its
// games; lists are cut to the limits (the API's request; the CLI lists everything).
struct ExploredPosition {
  const store::Exploration& exploration;
  const std::optional<store::Arrival>& arrival;
  const chess::Board& board;
  const counts::SliceFilter& filter;
  const book::OpeningNames& names;
  const std::vector<store::GameRecord>& top_games;
  const std::vector<store::GameRecord>& recent_games;
  size_t max_moves = std::numeric_limits<size_t>::max();
  size_t max_top_games = std::numeric_limits<size_t>::max();
  size_t max_recent_games = std::numeric_limits<size_t>::max();
  // kApi only: the move each listed game played and the only game of a move (store/explore.h;
  // lichess lists only games with their move, so a game without one is left out), and which
  // of lichess's answers this is.
  const store::GameMoves* game_moves = nullptr;
  bool with_recent_games = true;  // /masters has none
  bool with_kind = false;         // each game's speed and mode, as /lichess has them
};
// kCli: {"key", "filter", "games", with a line "by_line", "by_other_orders",
//        "mostly_transposed", "moves", "top_games", "recent_games"}
// kApi: lichess's {"white", "draws", "black" (over every move, listed or not), "moves" (a move
//        of one game with it as "game"), "topGames", "recentGames" (each game with its "uci"
//        first), "opening", "bookforge": {"key", "fen", "games",
//        "unknownResults", "filter", with a line "byLine", "byOtherOrders", "mostlyTransposed"}}
Json to_json(const ExploredPosition& position, Style style);

// db stats --json: {"positions", "moves", "games", "sources": [{"name", "size", "hash", "games",
// "filters", "max_ply", "count_repeats", "added"}]}, size and hash null for standard input.
Json to_json(const store::TreeStats& stats);

}  // namespace bookforge::json
