// The k-way merge that turns several sorted entry streams (spilled runs, the workers' sorted
// tables) into one stream in (key, move) order with equal (key, move) entries summed.
#pragma once

#include <memory>
#include <span>
#include <type_traits>
#include <vector>

#include "book/tally_entry.h"

namespace bookforge::book {

// A sorted array of slots (TallyEntry or CompactSlot: anything with to_entry() or that is a
// TallyEntry) seen as a stream. The array must outlive the stream.
template <class Slot>
class SpanStream : public EntryStream {
 public:
  explicit SpanStream(std::span<const Slot> slots) : slots_(slots) {}
  bool next(TallyEntry& entry) override {
    if (pos_ == slots_.size()) return false;
    if constexpr (std::is_same_v<Slot, TallyEntry>) entry = slots_[pos_++];
    else entry = slots_[pos_++].to_entry();
    return true;
  }
  Status status() const override { return ok_status(); }

 private:
  std::span<const Slot> slots_;
  size_t pos_ = 0;
};

// Merges sources that are each sorted by (key, move); a (key, move) may appear in several
// sources (at most once in each) and comes out once with its counts summed.
class MergedStream : public EntryStream {
 public:
  explicit MergedStream(std::vector<std::unique_ptr<EntryStream>> sources);
  bool next(TallyEntry& entry) override;
  Status status() const override;

 private:
  struct Head {
    TallyEntry entry;
    size_t source;
  };
  void pull(size_t source);  // reads the next entry of a source into the heap
  Head pop();                // removes the smallest head and refills from its source
  void sift_down(size_t i);
  void sift_up(size_t i);

  std::vector<std::unique_ptr<EntryStream>> sources_;
  std::vector<Head> heap_;  // a binary min-heap on (key, move)
  Status status_ = ok_status();
};

}  // namespace bookforge::book
