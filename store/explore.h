// The explorer query: every move the store knows from one position, with its statistics,
// most played first, over all the games or over a slice filter's (counts/slice.h).
//
// Percentages are of the games with a result (white + draws + black), so they add up to 100;
// games also counts games without one ("*"). share is the move's games of the position's.
// The mover's score is (wins + draws / 2) of the games with a result, from the side to move's
// point of view. The average rating is the mover's Elo averaged over the games where the mover
// had one; the opponents' average likewise. The performance is the mover's, by the linear
// rule: opponents' average + 400 x (wins - losses) / games with a result (FIDE's approximation
// for a tournament performance, at most +-400 from the opponents' average). First and last
// year are those of the games' dates (years of games with no known date are not seen).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/result.h"
#include "chess/board.h"
#include "store/game_record.h"
#include "store/store.h"

namespace bookforge::store {

struct ExploredMove {
  chess::Move move;
  uint16_t polyglot_move = 0;
  std::string uci;
  std::string san;
  uint64_t games = 0;
  uint64_t white = 0;
  uint64_t draws = 0;
  uint64_t black = 0;
  double white_percent = 0;
  double draws_percent = 0;
  double black_percent = 0;
  double share_percent = 0;
  double score_percent = 0;                   // the mover's
  std::optional<double> avg_rating;           // the mover's; nullopt when no game was rated
  std::optional<double> avg_opponent_rating;  // nullopt when no opponent was rated
  std::optional<double> performance;          // the mover's; nullopt without a rated opponent
  std::optional<int> first_year, last_year;   // nullopt when no game's date is known
  uint64_t after_key = 0;                     // Polyglot key of the position the move leads to
};

struct Exploration {
  uint64_t key = 0;
  uint64_t games = 0;               // sum over the moves
  std::vector<ExploredMove> moves;  // by games, most first; ties by UCI text
  uint64_t foreign_rows = 0;        // rows under this key whose move is illegal here (a key collision)
};

Result<Exploration> explore(Store& store, const chess::Board& board, const counts::SliceFilter& filter = {});

// How the games came to a position reached by a line of moves (transpositions). `reached` is
// the position's games (every game that played a move from it; games that ended there, or
// whose counting stopped at the store's max-ply, are not seen), `by_line` the games that
// played the line's last move from the position before it (some of which may have ended
// right after it).
struct Arrival {
  uint64_t reached = 0;
  uint64_t by_line = 0;

  // Games that came by another move order.
  uint64_t by_other_orders() const { return reached > by_line ? reached - by_line : 0; }
  // Reached more often by another move order than by the line walked.
  bool mostly_transposed() const { return by_other_orders() > by_line; }
};

// `position` is the exploration of the position `last` leads to from `parent`, made with the
// same filter.
Result<Arrival> arrival(Store& store, const chess::Board& parent, chess::Move last,
                        const Exploration& position, const counts::SliceFilter& filter = {});

// What the store can tell of the games behind a position's moves, from the top and recent
// lists it keeps for positions up to its game plies (store/game_record.h):
// - the move each game of the position's lists played there: the move whose next position
//   lists the game too (absent when no next position lists it, as past the game plies);
// - the only game of a move: when the next position's lists hold exactly one game, no other
//   game reached it within the game plies, so that game is the one that played the move.
struct GameMoves {
  std::unordered_map<uint64_t, std::string> uci_by_fingerprint;
  std::unordered_map<std::string, GameRecord> only_game_by_uci;
};
// `listed`: the games of the lists of the position explored.
Result<GameMoves> game_moves(Store& store, const Exploration& position,
                             const std::vector<GameRecord>& listed);

// The fingerprints of the stored games in `range` (store/game_record.h: parse_any_game_id).
// Read as a range of the games' key (Store::fingerprints_between).
Result<std::vector<uint64_t>> stored_fingerprints(Store& store, FingerprintRange range);

}  // namespace bookforge::store
