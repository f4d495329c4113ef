// The k-way merge that turns several sorted entry streams (spilled runs, the workers' sorted
// tables) into one stream in (key, move) order with equal (key, move) entries summed.
#pragma once

#include <memory>
#include <span>
#include <type_traits>
#include <vector>

#include "book/tally_entry.h"

namespace bookforge::book {

// A sorted array of slots (TallyEntry, or CompactSlot converted with to_entry()) seen as a
// stream; slots with move 0 are empty and skipped. The array must outlive the stream.
template <class Slot>
class SpanStream : public EntryStream {
 public:
  SpanStream(const Slot* begin, const Slot* end) : next_(begin), end_(end) {}
  explicit SpanStream(std::span<const Slot> slots) : SpanStream(slots.data(), slots.data() + slots.size()) {}
  bool next(TallyEntry& entry) override {
    while (next_ != end_ && next_->move == 0) ++next_;
    if (next_ == end_) return false;
    if constexpr (std::is_same_v<Slot, TallyEntry>)
      entry = *next_++;
    else
      entry = (next_++)->to_entry();
    return true;
  }
  Status status() const override { return ok_status(); }

 private:
  const Slot* next_;
  const Slot* end_;
};

// Merges sources that are each sorted by (key, move); a (key, move) may appear in several
// sources (at most once in each) and comes out once with its counts summed.
class MergedStream : public EntryStream {
 public:
  explicit MergedStream(std::vector<std::unique_ptr<EntryStream>> sources);
  bool next(TallyEntry& entry) override;
  Status status() const override;

 private:
  // A heap node is 16 bytes: the (key, move) it is ordered by and the source whose current
  // entry it stands for; the entries themselves stay put in current_.
  struct Head {
    uint64_t key;
    uint16_t move;
    uint32_t source;
    bool operator<(const Head& o) const { return key != o.key ? key < o.key : move < o.move; }
  };
  bool refill(size_t source);  // reads the source's next entry; false at its end
  TallyEntry& top_entry() { return current_[heap_.front().source]; }
  void advance_top();  // replaces the top by its source's next entry, or drops it
  void sift_down(size_t i);

  std::vector<std::unique_ptr<EntryStream>> sources_;
  std::vector<TallyEntry> current_;  // each source's entry in the heap
  std::vector<Head> heap_;           // a binary min-heap on (key, move)
  Status status_ = ok_status();
};

// Streams read one after another: the whole is in order when each stream is, and each one's
// entries come before the next one's.
class ConcatStream : public EntryStream {
 public:
  explicit ConcatStream(std::vector<std::unique_ptr<EntryStream>> parts) : parts_(std::move(parts)) {}
  bool next(TallyEntry& entry) override;
  Status status() const override;

 private:
  std::vector<std::unique_ptr<EntryStream>> parts_;
  size_t current_ = 0;
};

}  // namespace bookforge::book
