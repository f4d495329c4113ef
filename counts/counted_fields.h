// The counts kept for every (position, move), listed once. Every representation of the counts
// is generated from this list: the TallyEntry members and their sum (counts/entry.h), the
// tables' narrow slots (counts/slots.h), the run files (counts/run_file.cpp), the k-way
// merge (counts/entry_merge.cpp) and the columns of the SQLite tree (store/row.h).
// A new count is one line here; if it needs something of the game that GamePly does not carry
// yet, add that to GamePly and fill it in where the tally's workers make their plies.
//
//   X(name, type, merge, column, one_game, without_slot)
//
//   name          the TallyEntry member
//   type          its type there, the widest any representation holds
//   merge         how two counts of the same (key, move) combine: kSum or kMin
//   column        its column in the store's tree table
//   one_game      what one game adds, an expression over `g` (a GamePly)
//   without_slot  its value when read from a slot that does not keep it, an expression over the
//                 entry `e` filled so far (the fields above it); a slot takes a game only if
//                 this gives back what one_game says (see counts/slots.h)
//
// The order is the store's column order and the run files' field order; it also lays
// TallyEntry out without padding (the 64-bit sums together, then the 32-bit ones).
#pragma once

// Every table slot takes only games with a result (the rest go to the wide table), so a slot
// needs no game count: it is the sum of the three results.
#define BOOKFORGE_COUNTED_FIELDS(X)                                                               \
  X(white_wins, uint32_t, counts::Merge::kSum, "white", g.outcome == pgn::Outcome::kWhiteWins, 0) \
  X(draws, uint32_t, counts::Merge::kSum, "draws", g.outcome == pgn::Outcome::kDraw, 0)           \
  X(black_wins, uint32_t, counts::Merge::kSum, "black", g.outcome == pgn::Outcome::kBlackWins, 0) \
  X(games, uint32_t, counts::Merge::kSum, "games", 1, e.white_wins + e.draws + e.black_wins)      \
  X(rating_sum, uint64_t, counts::Merge::kSum, "rating_sum", g.elo, 0)                            \
  X(opponent_rating_sum, uint64_t, counts::Merge::kSum, "opponent_rating_sum", g.opponent_elo, 0) \
  X(rated_games, uint32_t, counts::Merge::kSum, "rated", g.elo != 0, 0)                           \
  X(opponents_rated, uint32_t, counts::Merge::kSum, "opponents_rated", g.opponent_elo != 0, 0)    \
  X(first_ply, uint16_t, counts::Merge::kMin, "first_ply", g.game_ply, 0xffff)
