// The player explorer: the tree of one player's games with one colour (lichess's player tab,
// and what openingtree builds), over the slices and modes a query keeps. "What does X play as
// Black after 1.e4, and how does X score with it" is one query.
//
// Nothing is counted ahead for it: the store keeps every game's moves under each of its players
// (player_games, store.h), and a query walks the player's games to the position, counting the moves played
// from it as the tree counts them -- a move once per game (every time with count-repeats), a transposition as
// the same position. A walk stops as soon as the game can no longer reach the position (a piece or pawn fewer
// than it has, or pawns past it), so a query costs about the player's game count, not their length.
//
// Names match as the sources write them, but for ASCII case ("carlsen, magnus" finds "Carlsen,
// Magnus"; spaces and other letters must match). Figures are the player's: score and
// performance from the player's side, the opponents' average rating.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "chess/board.h"
#include "counts/slice.h"
#include "store/game_record.h"
#include "store/store.h"

namespace bookforge::store {

struct PlayerQuery {
  std::string player;
  bool as_white = true;
  counts::SliceFilter filter;
  uint32_t modes = 0;           // bit 1 << GameMode per mode kept; 0 keeps every game
  size_t max_recent_games = 8;  // the newest games through the position read whole
};

// "rated,casual" -> bits of PlayerQuery::modes; an error names the bad item.
Result<uint32_t> parse_modes(std::string_view text);

struct PlayerMove {
  chess::Move move;
  uint16_t polyglot_move = 0;
  std::string uci, san;
  uint64_t games = 0, white = 0, draws = 0, black = 0;
  double score_percent = 0;                   // the player's, of the games with a result
  std::optional<double> avg_opponent_rating;  // nullopt when no opponent was rated
  std::optional<double> performance;          // the player's; nullopt without a rated opponent
  std::optional<GameRecord> only_game;        // the game, when one game played the move
  uint32_t last_date = 0;                     // date_rank of its newest game (0: unknown)
  uint64_t after_key = 0;
};

struct PlayerExploration {
  uint64_t key = 0;
  uint64_t games = 0, white = 0, draws = 0, black = 0;  // over the moves
  std::vector<PlayerMove> moves;                        // most played first, ties by UCI
  std::vector<GameRecord> recent_games;        // that played on from here, newest first (a query's most)
  std::vector<std::string> recent_game_moves;  // the move (UCI) each played from here
  uint64_t recent_game_count = 0;              // every game that played on from here
  uint64_t player_games = 0;                   // the player's games with the colour that the filters keep
  uint64_t games_without_moves = 0;            // the store's games the explorer cannot walk (store.h)
};

Result<PlayerExploration> explore_player(Store& store, const chess::Board& board, const PlayerQuery& query);

}  // namespace bookforge::store
