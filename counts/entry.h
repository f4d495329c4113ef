// One (position, move) of the position graph with everything counted for it, and the stream
// of such entries in (key, move) order that the selection rules and the SQLite store consume.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

#include "base/result.h"
#include "chess/types.h"
#include "counts/counted_fields.h"
#include "pgn/game.h"

namespace bookforge::counts {

// How two counts of the same (key, move) combine (counts/counted_fields.h).
enum class Merge : uint8_t { kSum, kMin };

// A count that nothing was added to yet: 0 for a sum, the type's largest value for a minimum.
template <class T>
constexpr T empty_count(Merge merge) {
  return merge == Merge::kSum ? T(0) : std::numeric_limits<T>::max();
}

// What one game tells the counts of a (position, move) it played: its result, the game ply at
// which the move was played, the mover's and the opponent's Elo (0 if unknown or not kept),
// and the game's slice (0 unless the tally splits its counts by slice: see TallyEntry).
struct GamePly {
  pgn::Outcome outcome = pgn::Outcome::kUnknown;
  uint16_t game_ply = 0;
  uint16_t elo = 0;
  uint16_t opponent_elo = 0;
  uint32_t slice = 0;
};

// How many counts BOOKFORGE_COUNTED_FIELDS lists (the run files' varints, the store's columns).
inline constexpr int kCountedFieldCount = 0
#define BOOKFORGE_ONE_FIELD(name, type, merge, column, one_game, without_slot) +1
    BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_ONE_FIELD)
#undef BOOKFORGE_ONE_FIELD
    ;

// Counts for one (Polyglot key, Polyglot move), one member per line of
// BOOKFORGE_COUNTED_FIELDS:
//
//   white_wins, draws, black_wins  games with that result; games without a result ("*") count
//                                  in `games` only, so games >= white_wins + draws + black_wins
//   games                          every game that played the move (a move repeated within one
//                                  game counts once unless repeats are counted)
//   rating_sum, rated_games        the mover's Elo summed over the games where the mover had one
//   opponent_rating_sum,           the same for the mover's opponent (kept by the store only)
//     opponents_rated
//   first_ply                      the smallest game ply (Board::game_ply()) at which the move
//                                  was played
//
// A position's side to move is fixed by its key, so every occurrence has the same ply parity:
// first_ply & 1 is the side to move, which a key alone cannot tell.
//
// An entry is identified by (key, move, slice). The slice is 0 for a book's tally; the store
// splits its counts by a slice of the games (their speed, rating band and month:
// counts/slice.h), so one (key, move) then comes as several entries in slice order.
struct TallyEntry {
  uint64_t key = 0;
#define BOOKFORGE_MEMBER(name, type, merge, column, one_game, without_slot) \
  type name = empty_count<type>(merge);
  BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_MEMBER)
#undef BOOKFORGE_MEMBER
  uint16_t move = 0;
  uint32_t slice = 0;

  chess::Color side_to_move() const { return chess::Color(first_ply & 1); }
  uint32_t mover_wins() const { return side_to_move() == chess::kWhite ? white_wins : black_wins; }
  uint32_t mover_losses() const { return side_to_move() == chess::kWhite ? black_wins : white_wins; }
  // Games without a recorded result ("*").
  uint32_t unknown_results() const { return games - white_wins - draws - black_wins; }
  // The mover's score in half points, as Polyglot counts it: 2 per win, 1 per draw, and 1 for
  // a game without a result (Polyglot treats "*" like a draw).
  uint64_t half_points() const { return 2 * uint64_t(mover_wins()) + draws + unknown_results(); }

  // The counts of one game, in its slice (key and move left 0).
  static TallyEntry of_game(const GamePly& g) {
    TallyEntry one;
    one.slice = g.slice;
#define BOOKFORGE_ONE_GAME(name, type, merge, column, one_game, without_slot) one.name = type(one_game);
    BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_ONE_GAME)
#undef BOOKFORGE_ONE_GAME
    return one;
  }

  // The game this entry is the counts of, when it holds exactly one game's (what of_game gives
  // for it): most entries of a large tally do, and the run files write those in a short form.
  // The game is read back from the fields and checked by making its entry again, so a field
  // added to BOOKFORGE_COUNTED_FIELDS can never be lost: an entry it does not fit is not one.
  bool as_one_game(GamePly& g) const {
    if (games != 1 || rating_sum > 0xffff || opponent_rating_sum > 0xffff) return false;
    g.outcome = white_wins   ? pgn::Outcome::kWhiteWins
                : draws      ? pgn::Outcome::kDraw
                : black_wins ? pgn::Outcome::kBlackWins
                             : pgn::Outcome::kUnknown;
    g.game_ply = first_ply;
    g.elo = uint16_t(rating_sum);
    g.opponent_elo = uint16_t(opponent_rating_sum);
    g.slice = slice;
    TallyEntry again = of_game(g);
    again.key = key;
    again.move = move;
    return again == *this;
  }

  // Adds the counts of another entry for the same (key, move).
  void add(const TallyEntry& other) { assign_sum_if(*this, other, true); }

  // Sets this entry to `first` plus, if `equal`, the counts of `other`, computed without a
  // branch: the k-way merge sums equal entries of its two inputs this way (which input comes
  // next is a coin toss for Zobrist keys, and a mispredicted branch per entry was most of a
  // merge's cost). Every field is computed from the two inputs and written once: copying
  // `first` here and then adding to the copy read back, in one vector load, fields just
  // written by two different stores, which the CPU cannot forward; that stall cost a quarter
  // of the merge's time.
  void assign_sum_if(const TallyEntry& first, const TallyEntry& other, bool equal) {
    key = first.key;
    move = first.move;
    slice = first.slice;
#define BOOKFORGE_SUM_IF(name, type, merge, column, one_game, without_slot) \
  {                                                                         \
    const type mask = type(type(0) - type(equal));                          \
    if constexpr (merge == Merge::kSum)                                     \
      name = type(first.name + (other.name & mask));                        \
    else                                                                    \
      name = std::min(first.name, type(other.name | type(~mask)));          \
  }
    BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_SUM_IF)
#undef BOOKFORGE_SUM_IF
  }

  bool operator==(const TallyEntry&) const = default;
};

// What orders the entries of one key: the move, then the slice. A narrow slot has no slice
// (counts/slots.h): it only ever holds slice 0.
template <class Slot>
constexpr uint64_t minor_order(const Slot& s) {
  if constexpr (requires { s.slice; })
    return uint64_t(s.move) << 32 | s.slice;
  else
    return uint64_t(s.move) << 32;
}

// The order of every tally stream and table: by key, then by move, then by slice (of entries
// or of slots).
inline constexpr auto tally_order = [](const auto& a, const auto& b) {
  return a.key != b.key ? a.key < b.key : minor_order(a) < minor_order(b);
};

// Entries in strictly increasing (key, move, slice) order, each once with its counts summed. The tally's
// merged runs deliver one; the SQLite store can deliver another, and the selection rules cannot tell them
// apart, so both give the same book.
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

}  // namespace bookforge::counts
