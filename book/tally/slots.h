// The narrow slots a tally's main table counts into, and how a game is added to one. A slot
// keeps some of the counted fields (book/tally/counted_fields.h), each as narrow as the table
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

#include "book/tally/entry.h"

namespace bookforge::book {

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

// A slot's counts written into an entry, field by field into the destination: an entry built
// on the stack and copied out as a whole stalls on the store buffer, at a cost that showed in
// every merge.
template <class Slot>
inline void fill_entry(const Slot& s, TallyEntry& e) {
  e.key = s.key;
  e.move = s.move;
#define BOOKFORGE_FILL(name, type, merge, column, one_game, without_slot) \
  if constexpr (requires { s.name; })                                     \
    e.name = s.name;                                                      \
  else                                                                    \
    e.name = type(without_slot);
  BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_FILL)
#undef BOOKFORGE_FILL
}

inline void fill_entry(const TallyEntry& s, TallyEntry& e) { e = s; }

// Whether a Slot can ever take a game whose counts are `e` (TallyEntry::of_game): every field
// the slot lacks must read back, as
// without_slot, what the game adds to it. (A game a slot cannot take is never looked up in
// its table, so no slot is made that would stay empty.)
template <class Slot>
inline bool slot_takes(const TallyEntry& e) {
  bool takes = true;
#define BOOKFORGE_TAKES(name, type, merge, column, one_game, without_slot) \
  if constexpr (!requires(Slot s) { s.name; }) takes &= type(without_slot) == e.name;
  BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_TAKES)
#undef BOOKFORGE_TAKES
  return takes;
}

// Adds the counts of one game (TallyEntry::of_game, that slot_takes) to a slot; false, with the slot
// unchanged, if a counter would overflow, and the game then goes to the wide table. Each sum is computed once
// into a temporary with the overflow flag the CPU gives for free; the slot is written only when all of them
// fit.
template <class Slot>
inline bool add_game(Slot& s, const TallyEntry& one) {
  bool overflow = false;
  Slot next = s;
#define BOOKFORGE_ADD(name, type, merge, column, one_game, without_slot)             \
  if constexpr (requires { s.name; }) {                                              \
    if constexpr (merge == Merge::kSum)                                              \
      overflow |= __builtin_add_overflow(s.name, one.name, &next.name);              \
    else                                                                             \
      next.name = std::min<std::remove_cvref_t<decltype(s.name)>>(s.name, one.name); \
  }
  BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_ADD)
#undef BOOKFORGE_ADD
  if (overflow) return false;
  s = next;
  return true;
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

}  // namespace bookforge::book
