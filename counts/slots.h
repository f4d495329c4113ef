// The narrow slots a tally's main table counts into, and how a game is added to one. A slot
// keeps some of the counted fields (counts/counted_fields.h), each as narrow as the table
// can afford; a field a slot lacks reads as the list's without_slot value. A game the slot
// cannot take (a counter would overflow, or the game adds to a field the slot lacks in a way
// without_slot cannot give back, such as a game without a result) goes into the tally's wide
// table of full TallyEntry slots instead; the same (key, move) may then live in both tables,
// which is fine because every consumer sums equal (key, move) entries anyway.
//
// Everything here works on any slot type by the names of its members, so a new counted field
// needs nothing here: it reads as without_slot until a slot gets a member of that name.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "counts/entry.h"

namespace bookforge::counts {

// The slot of a tally that keeps ratings: 24 bytes, with 16-bit counters and a 32-bit rating
// sum. move 0 (a1a1, never a real move) marks an empty slot.
//
//   byte 0          8            12      14      16      18      20      22      24
//        +----------+------------+-------+-------+-------+-------+-------+-------+
//        | key u64  | rating u32 | white | draws | black | rated | move  | ply   |
//        +----------+------------+-------+-------+-------+-------+-------+-------+
struct CompactSlot {
  uint64_t key;
  uint32_t rating_sum;
  uint16_t white_wins;
  uint16_t draws;
  uint16_t black_wins;
  uint16_t rated_games;
  uint16_t move;
  uint16_t first_ply;
};
static_assert(sizeof(CompactSlot) == 24, "the compact slot layout is drawn above");

// The slot of a tally that does not keep ratings (a book not weighted by rating needs none):
// 16 bytes, so a third more (key, move) pairs fit the same memory and a probe touches fewer
// cache lines.
//
//   byte 0          8       10      12  13  14  15  16
//        +----------+-------+-------+---+---+---+---+
//        | key u64  | move  | ply   | W | D | B | - |
//        +----------+-------+-------+---+---+---+---+
struct SmallSlot {
  uint64_t key;
  uint16_t move;
  uint16_t first_ply;
  uint8_t white_wins;
  uint8_t draws;
  uint8_t black_wins;
  uint8_t unused;
};
static_assert(sizeof(SmallSlot) == 16, "the small slot layout is drawn above");

// The slot of the store's tally, which splits the counts by slice and keeps the opponents'
// ratings too: 40 bytes, with 16-bit counters and 32-bit rating sums.
//
//   byte 0          8          12     14     16      20          24
//        +----------+----------+------+------+-------+-----------+
//        | key u64  | slice    | move | ply  | rating| opp rating|
//        +----------+----------+------+------+-------+-----------+
//   byte 24   26      28      30      32      34            40
//        +-------+-------+-------+-------+-------+-------------+
//        | white | draws | black | rated | opp   | -           |
//        |       |       |       |       | rated |             |
//        +-------+-------+-------+-------+-------+-------------+
struct StoreSlot {
  uint64_t key;
  uint32_t slice;
  uint16_t move;
  uint16_t first_ply;
  uint32_t rating_sum;
  uint32_t opponent_rating_sum;
  uint16_t white_wins;
  uint16_t draws;
  uint16_t black_wins;
  uint16_t rated_games;
  uint16_t opponents_rated;
  uint16_t unused[3];
};
static_assert(sizeof(StoreSlot) == 40, "the store slot layout is drawn above");

// A slot's counts written into an entry, field by field into the destination: an entry built
// on the stack and copied out as a whole stalls on the store buffer, at a cost that showed in
// every merge.
template <class Slot>
inline void fill_entry(const Slot& s, TallyEntry& e) {
  e.key = s.key;
  e.move = s.move;
  if constexpr (requires { s.slice; })
    e.slice = s.slice;
  else
    e.slice = 0;
#define BOOKFORGE_FILL(name, type, merge, column, one_game, without_slot) \
  if constexpr (requires { s.name; })                                     \
    e.name = s.name;                                                      \
  else                                                                    \
    e.name = type(without_slot);
  BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_FILL)
#undef BOOKFORGE_FILL
}

inline void fill_entry(const TallyEntry& s, TallyEntry& e) { e = s; }

// Calls f(g) with g's result as a compile-time constant: one case per result. The counting of
// one game into a slot goes through here, so that the compiler folds every field's one_game
// that depends on the result (every field but the one the result picks adds zero): on the
// result as a variable, the generic code cost the innermost loop of a build a dozen
// instructions per ply more than code written for one slot by hand.
template <class F>
inline decltype(auto) with_constant_result(const GamePly& g, F&& f) {
  using pgn::Outcome;
  auto as = [&]<Outcome kResult>() {
    GamePly constant = g;
    constant.outcome = kResult;
    return f(constant);
  };
  switch (g.outcome) {
    case Outcome::kWhiteWins:
      return as.template operator()<Outcome::kWhiteWins>();
    case Outcome::kDraw:
      return as.template operator()<Outcome::kDraw>();
    case Outcome::kBlackWins:
      return as.template operator()<Outcome::kBlackWins>();
    case Outcome::kUnknown:
      break;
  }
  return as.template operator()<Outcome::kUnknown>();
}

// Whether a Slot can take the game `g` at all: every field the slot lacks must read back, as
// without_slot, what the game adds to it. (A game a slot cannot take is never looked up in its
// table, so no slot is made that would stay empty.)
template <class Slot>
inline bool slot_takes(const GamePly& game) {
  return with_constant_result(game, [](const GamePly& g) {
    const TallyEntry e = TallyEntry::of_game(g);
    bool takes = true;
    if constexpr (!requires(Slot s) { s.slice; }) takes &= g.slice == 0;
#define BOOKFORGE_TAKES(name, type, merge, column, one_game, without_slot) \
  if constexpr (!requires(Slot s) { s.name; }) takes &= type(without_slot) == e.name;
    BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_TAKES)
#undef BOOKFORGE_TAKES
    return takes;
  });
}

// Adds the game `g` (one that slot_takes) to a slot; false, with the slot unchanged, if a
// counter would overflow, and the game then goes to the wide table. Every check comes before
// the first write.
template <class Slot>
inline bool add_game(Slot& s, const GamePly& game) {
  return with_constant_result(game, [&s](const GamePly& g) {
    bool overflow = false;
#define BOOKFORGE_FITS(name, type, merge, column, one_game, without_slot)     \
  if constexpr (merge == Merge::kSum && requires { s.name; }) {               \
    using Field = std::remove_cvref_t<decltype(s.name)>;                      \
    overflow |= s.name > std::numeric_limits<Field>::max() - Field(one_game); \
  }
    BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_FITS)
#undef BOOKFORGE_FITS
    if (overflow) return false;
#define BOOKFORGE_ADD(name, type, merge, column, one_game, without_slot) \
  if constexpr (requires { s.name; }) {                                  \
    using Field = std::remove_cvref_t<decltype(s.name)>;                 \
    if constexpr (merge == Merge::kSum)                                  \
      s.name = Field(s.name + Field(one_game));                          \
    else                                                                 \
      s.name = std::min(s.name, Field(one_game));                        \
  }
    BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_ADD)
#undef BOOKFORGE_ADD
    return true;
  });
}

// A slot just taken for a (key, move): every count empty (first_ply's minimum starts at its
// largest value), the rest of the slot zero.
template <class Slot>
inline void start_counts(Slot& s) {
#define BOOKFORGE_START(name, type, merge, column, one_game, without_slot) \
  if constexpr (requires { s.name; }) s.name = empty_count<std::remove_cvref_t<decltype(s.name)>>(merge);
  BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_START)
#undef BOOKFORGE_START
}

}  // namespace bookforge::counts
