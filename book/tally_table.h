// The open-addressing tables a tally worker counts into, keyed by (Polyglot key, move).
//
// Most (position, move) pairs of a database are seen a handful of times, so the main table
// holds 24-byte compact slots with 16-bit counters and a 32-bit rating sum:
//
//   byte 0          8            12      14      16      18      20      22      24
//        +----------+------------+-------+-------+-------+-------+-------+-------+
//        | key u64  | rating u32 | white | draws | black | rated | move  | ply   |
//        +----------+------------+-------+-------+-------+-------+-------+-------+
//
// move 0 (a1a1, never a real move) marks an empty slot. A game the compact slot cannot take
// (a counter would pass 65535, the rating sum 2^32 - 1, or the game has no result, which the
// compact slot has no counter for) goes into a second table of full TallyEntry slots instead;
// the same (key, move) may then live in both tables, which is fine because every consumer
// sums equal (key, move) entries anyway.
//
// Slots are found by linear probing from a position computed with a multiply-shift range
// reduction, so a table can have any capacity, not only powers of two: the memory budget is
// used to the last slot.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <span>

#include "book/tally_entry.h"

namespace bookforge::book {

struct CompactSlot {
  uint64_t key;
  uint32_t rating_sum;
  uint16_t white_wins;
  uint16_t draws;
  uint16_t black_wins;
  uint16_t rated_games;
  uint16_t move;
  uint16_t first_ply;

  TallyEntry to_entry() const {
    TallyEntry e;
    e.key = key;
    e.move = move;
    e.first_ply = first_ply;
    e.rating_sum = rating_sum;
    e.white_wins = white_wins;
    e.draws = draws;
    e.black_wins = black_wins;
    e.games = uint32_t(white_wins) + draws + black_wins;
    e.rated_games = rated_games;
    return e;
  }
};
static_assert(sizeof(CompactSlot) == 24, "the compact slot layout is drawn above");

// An open-addressing table of Slot (CompactSlot or TallyEntry: anything with key, move and
// first_ply members, zero meaning empty). Kept at most 3/4 full.
template <class Slot>
class OpenTable {
 public:
  explicit OpenTable(size_t capacity) {
    if (!allocate(std::max<size_t>(capacity, 16))) throw std::bad_alloc();
  }
  ~OpenTable() { std::free(slots_); }
  OpenTable(const OpenTable&) = delete;
  OpenTable& operator=(const OpenTable&) = delete;

  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  size_t bytes() const { return capacity_ * sizeof(Slot); }
  bool over_load() const { return size_ * 4 > capacity_ * 3; }

  // The slot of (key, move), created empty (zero counts, ply 0xffff) if absent. The table
  // must not be over its load limit (grow or drain it first).
  Slot& find_or_insert(uint64_t key, uint16_t move) {
    size_t i = home(key, move);
    for (;;) {
      Slot& s = slots_[i];
      if (s.move == 0) {
        s.key = key;
        s.move = move;
        s.first_ply = 0xffff;
        ++size_;
        return s;
      }
      if (s.key == key && s.move == move) return s;
      if (++i == capacity_) i = 0;
    }
  }

  // Rehashes into a table of `capacity` slots (more than size()). False if out of memory.
  bool resize(size_t capacity) {
    Slot* old = slots_;
    size_t old_capacity = capacity_;
    if (!allocate(capacity)) {
      slots_ = old;
      capacity_ = old_capacity;
      return false;
    }
    size_ = 0;
    for (size_t i = 0; i < old_capacity; ++i)
      if (old[i].move != 0) find_or_insert(old[i].key, old[i].move) = old[i];
    std::free(old);
    return true;
  }

  // Moves the used slots to the front, sorted by (key, move), and returns them. The table is
  // unusable for lookups until clear().
  std::span<Slot> sort_in_place() {
    size_t n = 0;
    for (size_t i = 0; i < capacity_; ++i)
      if (slots_[i].move != 0) slots_[n++] = slots_[i];
    std::sort(slots_, slots_ + n, [](const Slot& a, const Slot& b) {
      return a.key != b.key ? a.key < b.key : a.move < b.move;
    });
    return {slots_, n};
  }

  void clear() {
    std::memset(static_cast<void*>(slots_), 0, capacity_ * sizeof(Slot));
    size_ = 0;
  }

 private:
  size_t home(uint64_t key, uint16_t move) const {
    uint64_t h = key ^ (uint64_t(move) * 0x9e3779b97f4a7c15ULL);
    h ^= h >> 31;
    return size_t((static_cast<unsigned __int128>(h) * capacity_) >> 64);
  }

  bool allocate(size_t capacity) {
    // calloc: zero pages come from the kernel untouched, so resident memory grows with use.
    slots_ = static_cast<Slot*>(std::calloc(capacity, sizeof(Slot)));
    capacity_ = capacity;
    return slots_ != nullptr;
  }

  Slot* slots_ = nullptr;
  size_t capacity_ = 0;
  size_t size_ = 0;
};

}  // namespace bookforge::book
