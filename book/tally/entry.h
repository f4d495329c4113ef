// One (position, move) of the position graph with everything counted for it, and the stream
// of such entries in (key, move) order that the selection rules and the SQLite store consume.
#pragma once

#include <algorithm>
#include <cstdint>

#include "engine/result.h"
#include "engine/types.h"

namespace bookforge::book {

// Counts for one (Polyglot key, Polyglot move). games counts every game that played the move
// (a move repeated within one game counts once unless repeats are counted), white_wins /
// draws / black_wins only the games with a result, so games >= white_wins + draws + black_wins.
// rating_sum adds the mover's Elo over the rated_games where the mover had one.
//
// first_ply is the smallest game ply (Board::game_ply()) at which the move was played. A
// position's side to move is fixed by its key, so every occurrence has the same parity:
// first_ply & 1 is the side to move, which a key alone cannot tell.
struct TallyEntry {
  uint64_t key = 0;
  uint64_t rating_sum = 0;
  uint32_t white_wins = 0;
  uint32_t draws = 0;
  uint32_t black_wins = 0;
  uint32_t games = 0;
  uint32_t rated_games = 0;
  uint16_t move = 0;
  uint16_t first_ply = 0xffff;

  Color side_to_move() const { return Color(first_ply & 1); }
  uint32_t mover_wins() const { return side_to_move() == kWhite ? white_wins : black_wins; }
  uint32_t mover_losses() const { return side_to_move() == kWhite ? black_wins : white_wins; }
  // Games without a recorded result ("*").
  uint32_t unknown_results() const { return games - white_wins - draws - black_wins; }
  // The mover's score in half points, as Polyglot counts it: 2 per win, 1 per draw, and 1 for
  // a game without a result (Polyglot treats "*" like a draw).
  uint64_t half_points() const { return 2 * uint64_t(mover_wins()) + draws + unknown_results(); }

  // Adds the counts of another entry for the same (key, move).
  void add(const TallyEntry& other) {
    rating_sum += other.rating_sum;
    white_wins += other.white_wins;
    draws += other.draws;
    black_wins += other.black_wins;
    games += other.games;
    rated_games += other.rated_games;
    first_ply = std::min(first_ply, other.first_ply);
  }

  bool operator==(const TallyEntry&) const = default;
};

// The order of every tally stream: by key, then by move.
inline bool tally_order(const TallyEntry& a, const TallyEntry& b) {
  return a.key != b.key ? a.key < b.key : a.move < b.move;
}

// Entries in strictly increasing (key, move) order, each (key, move) once with its counts
// summed. The tally's merged runs deliver one; the SQLite store can deliver another, and the
// selection rules cannot tell them apart, so both give the same book.
class EntryStream {
 public:
  virtual ~EntryStream() = default;
  // The next entry; false at the end or when an error stopped the stream (see status()).
  virtual bool next(TallyEntry& entry) = 0;
  // Up to `max` next entries into `out`, as many calls of next() would give them; fewer only at
  // the end or on an error.
  virtual size_t next_batch(TallyEntry* out, size_t max) {
    size_t n = 0;
    while (n < max && next(out[n])) ++n;
    return n;
  }
  // Why next() returned false: ok at the end, the error otherwise.
  virtual Status status() const = 0;
};

}  // namespace bookforge::book
