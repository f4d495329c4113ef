// The open-addressing tables a tally partition counts into, keyed by (Polyglot key, move).
//
// Most (position, move) pairs of a database are seen a handful of times, so the main table
// holds narrow slots (counts/slots.h: 24 or 16 bytes); the games they cannot take go to a
// second table of full TallyEntry slots. move 0 (a1a1, never a real move) marks an empty slot.
//
// Both are ordered linear-probing tables: a key's home slot is key * capacity / 2^64 (in a
// partitioned tally, the key's place within its partition: see OpenTable), which
// grows with the key (Zobrist keys are uniform, so homes spread evenly), and the used slots are
// kept in increasing (key, move) order by inserting into a cluster rather than at its end:
//
//   home(x)                 the slot where x is looked for first
//   slots home(x)..pos(x)   all used (no gap between an entry and its home)
//   used slots, left to right, strictly increasing in (key, move)
//
// A lookup stops at the first slot that is empty or holds a larger (key, move); an insertion
// shifts the rest of the cluster one slot right. The table is therefore always sorted: a
// spill or the final merge reads it left to right, with no sort at all. There is no wrap-
// around: the array has some slack after the last home, and an insertion that would run off
// its end reports that the table needs to grow (or be spilled).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "counts/entry.h"
#include "counts/slots.h"
#include "counts/table_memory.h"

namespace bookforge::counts {

// An ordered open-addressing table of Slot (a narrow slot or TallyEntry: anything with key and
// move members, move 0 meaning empty). Kept at most 70% full: an ordered table stops
// a lookup at the first larger key, but an insertion must find its cluster's end to shift it,
// and a linear-probing cluster grows as 1/(1 - load)^2: at 85% that scan was a third of the
// counting time, at 70% it is a few slots.
template <class Slot>
class OpenTable {
 public:
  // A table of a tally partition (counts/tally.h) holds the keys of 1/partitions of the key
  // space, those whose key * partitions / 2^64 is the partition's number; their homes spread
  // over the whole array by the rest of that product.
  // With populate false, call populate() before the first lookup (so that the thread that
  // first counts into the table, not the one that makes it, pays for its pages).
  // An error if the memory cannot be had.
  static Result<OpenTable> create(size_t capacity, uint64_t partitions = 1, bool populate = true) {
    OpenTable table(partitions);
    if (!table.allocate(std::max<size_t>(capacity, 16), populate))
      return Error{"cannot allocate " + std::to_string(array_length(capacity) * sizeof(Slot) >> 20) +
                   " MiB for the tally's tables (--memory sets the budget)"};
    return table;
  }
  OpenTable(OpenTable&& other) noexcept
      : scale_(other.scale_),
        slots_(std::exchange(other.slots_, nullptr)),
        capacity_(std::exchange(other.capacity_, 0)),
        length_(std::exchange(other.length_, 0)),
        size_(std::exchange(other.size_, 0)) {}
  OpenTable& operator=(OpenTable&&) = delete;
  void populate() { populate_table_memory(slots_, bytes()); }
  ~OpenTable() {
    if (slots_) release_table_memory(slots_, bytes());
  }
  OpenTable(const OpenTable&) = delete;
  OpenTable& operator=(const OpenTable&) = delete;

  // The most homes a table can have within `bytes`: the array has array_length(c), about
  // c * 65/64 + 64 slots (the slack after the last home); c = n * 63/65 for n slots leaves
  // n/64 slots for the constant 64, which covers it from n = 4096 slots up.
  static uint64_t capacity_within(uint64_t bytes) { return bytes / sizeof(Slot) * 63 / 65; }

  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  size_t bytes() const { return length_ * sizeof(Slot); }
  bool over_load() const { return size_ * 10 > capacity_ * 7; }

  // The slot of (key, move, slice), created with empty counts (start_counts) if absent;
  // nullptr if creating it would run off the end of the array (grow or drain the table, then
  // retry). A slot type without a slice member takes slice 0 only.
  Slot* find_or_insert(uint64_t key, uint16_t move, uint32_t slice = 0) {
    size_t i = home(key);
    const uint64_t minor = uint64_t(move) << 32 | slice;
    for (; i < length_ && slots_[i].move != 0; ++i) {
      const Slot& s = slots_[i];
      if (s.key > key || (s.key == key && minor_order(s) >= minor)) {
        if (s.key == key && minor_order(s) == minor) return &slots_[i];
        break;
      }
    }
    // Insert at i: shift the rest of the cluster right by one.
    size_t end = i;
    while (end < length_ && slots_[end].move != 0) ++end;
    if (end == length_) return nullptr;
    // A cluster is a few slots long: a plain loop beats a call to memmove.
    for (size_t j = end; j > i; --j) slots_[j] = slots_[j - 1];
    std::memset(static_cast<void*>(slots_ + i), 0, sizeof(Slot));
    slots_[i].key = key;
    slots_[i].move = move;
    if constexpr (requires { slots_[i].slice; }) slots_[i].slice = slice;
    start_counts(slots_[i]);
    ++size_;
    return &slots_[i];
  }

  // Brings the slot a later lookup of `key` starts at into the cache.
  void prefetch(uint64_t key) const { __builtin_prefetch(slots_ + home(key)); }

  // Grows the table to `capacity` homes (more than now) in place. False if out of memory or
  // if the entries would not fit the new array; the table is then unchanged.
  //
  // Used slots always sit at their canonical place, pos(x) = max(home(x), pos(prev) + 1) for
  // the entries in order (an insertion puts x there and shifts the rest of its cluster to
  // theirs). A larger capacity never lowers a home, so each entry's new place is at or after
  // its old one, and moving the entries from the last to the first never overwrites one that
  // has not moved yet. The new places are computed forward; to move backwards without a list
  // of all of them, every kBlock-th entry's place is remembered and each block recomputed.
  bool resize(size_t capacity) {
    const size_t old_length = length_, old_capacity = capacity_;
    const size_t new_length = array_length(capacity);
    struct Mark {
      size_t old_index, place;
    };
    constexpr size_t kBlock = 1024;
    std::vector<Mark> marks;
    capacity_ = capacity;  // home() now gives the new homes
    size_t next = 0, count = 0;
    for (size_t i = 0; i < old_length; ++i) {
      if (slots_[i].move == 0) continue;
      size_t place = std::max(home(slots_[i].key), next);
      if (count++ % kBlock == 0) marks.push_back({i, place});
      next = place + 1;
    }
    Slot* grown = next <= new_length
                      ? static_cast<Slot*>(grow_table_memory(slots_, bytes(), new_length * sizeof(Slot)))
                      : nullptr;
    if (!grown) {
      capacity_ = old_capacity;
      return false;
    }
    slots_ = grown;
    length_ = new_length;
    std::vector<Mark> block;
    for (size_t m = marks.size(); m-- > 0;) {
      size_t end = m + 1 < marks.size() ? marks[m + 1].old_index : old_length;
      block.clear();
      next = marks[m].place;
      for (size_t i = marks[m].old_index; i < end; ++i) {
        if (slots_[i].move == 0) continue;
        size_t place = std::max(home(slots_[i].key), next);
        block.push_back({i, place});
        next = place + 1;
      }
      for (size_t b = block.size(); b-- > 0;) {
        if (block[b].place == block[b].old_index) continue;
        slots_[block[b].place] = slots_[block[b].old_index];
        std::memset(static_cast<void*>(slots_ + block[b].old_index), 0, sizeof(Slot));
      }
    }
    return true;
  }

  // The whole array, in (key, move) order with empty slots in between.
  const Slot* begin() const { return slots_; }
  const Slot* end() const { return slots_ + length_; }

  void clear() {
    std::memset(static_cast<void*>(slots_), 0, length_ * sizeof(Slot));
    size_ = 0;
  }
  // The whole array, to be emptied by the caller (drain_slot_run); then call emptied().
  Slot* drain_begin() { return slots_; }
  Slot* drain_end() { return slots_ + length_; }
  void emptied() { size_ = 0; }

  // The invariants drawn at the top: every used slot at or after its home with no empty slot
  // in between, the used slots in strictly increasing (key, move) order, and size() of them.
  // Reads the whole array: for assertions in debug builds and for tests.
  bool is_ok() const {
    size_t used = 0, cluster_start = 0;
    const Slot* previous = nullptr;
    for (size_t i = 0; i < length_; ++i) {
      if (slots_[i].move == 0) {
        cluster_start = i + 1;
        continue;
      }
      ++used;
      const size_t h = home(slots_[i].key);
      if (h > i || h < cluster_start) return false;
      if (previous && !tally_order(*previous, slots_[i])) return false;
      previous = &slots_[i];
    }
    return used == size_;
  }

 private:
  // key * scale_ wraps around to the key's place within its partition, in the same order.
  size_t home(uint64_t key) const {
    return size_t((static_cast<unsigned __int128>(key * scale_) * capacity_) >> 64);
  }

  // Room after the last home for the clusters that form there.
  static size_t array_length(size_t capacity) { return capacity + 64 + capacity / 64; }

  explicit OpenTable(uint64_t partitions) : scale_(partitions) {}

  bool allocate(size_t capacity, bool populate) {
    slots_ = static_cast<Slot*>(allocate_table_memory(array_length(capacity) * sizeof(Slot), populate));
    capacity_ = capacity;
    length_ = array_length(capacity);
    return slots_ != nullptr;
  }

  uint64_t scale_;
  Slot* slots_ = nullptr;
  size_t capacity_ = 0;  // homes are 0 .. capacity-1
  size_t length_ = 0;    // slots in the array
  size_t size_ = 0;
};

}  // namespace bookforge::counts
