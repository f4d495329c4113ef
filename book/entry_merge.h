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
  bool next(TallyEntry& entry) override { return next_batch(&entry, 1) == 1; }
  size_t next_batch(TallyEntry* out, size_t max) override {
    size_t n = 0;
    for (; n < max; ++n) {
      while (next_ != end_ && next_->move == 0) ++next_;
      if (next_ == end_) break;
      if constexpr (std::is_same_v<Slot, TallyEntry>)
        out[n] = *next_++;
      else
        out[n] = (next_++)->to_entry();
    }
    return n;
  }
  Status status() const override { return ok_status(); }

 private:
  const Slot* next_;
  const Slot* end_;
};

// Merges sources that are each sorted by (key, move); a (key, move) may appear in several
// sources (at most once in each) and comes out once with its counts summed.
//
// A tournament of losers over the sources' current entries: leaf i is source i (the leaves
// padded to a power of two with sources that are already at their end), each inner node keeps
// the source that lost the match played there, and node 0 the overall winner. Taking the
// winner's entry and replaying its leaf's matches up to the root costs one comparison a level.
// Sources are read a batch at a time.
class MergedStream : public EntryStream {
 public:
  explicit MergedStream(std::vector<std::unique_ptr<EntryStream>> sources);
  bool next(TallyEntry& entry) override;
  size_t next_batch(TallyEntry* out, size_t max) override {
    size_t n = 0;
    while (n < max && MergedStream::next(out[n])) ++n;
    return n;
  }
  Status status() const override;

 private:
  // (key, move) as one number, and a value past every real one for a source at its end.
  using Order = unsigned __int128;
  static constexpr Order kEnd = Order(1) << 100;
  static Order order_of(const TallyEntry& e) { return Order(e.key) << 16 | e.move; }

  struct Source {
    std::unique_ptr<EntryStream> stream;
    std::vector<TallyEntry> batch;
    size_t position = 0;
    size_t size = 0;
  };
  void advance(size_t leaf);  // the leaf's source moves on to its next entry
  void replay(size_t leaf);   // the matches from the leaf up to the root

  std::vector<Source> sources_;
  std::vector<Order> order_;     // per leaf: its current entry's order, kEnd at the end
  std::vector<uint32_t> loser_;  // per inner node 1 .. leaves-1; loser_[0] is the winner
  size_t leaves_ = 1;
  Status status_ = ok_status();
};

// Streams read one after another: the whole is in order when each stream is, and each one's
// entries come before the next one's.
class ConcatStream : public EntryStream {
 public:
  explicit ConcatStream(std::vector<std::unique_ptr<EntryStream>> parts) : parts_(std::move(parts)) {}
  bool next(TallyEntry& entry) override;
  size_t next_batch(TallyEntry* out, size_t max) override;
  Status status() const override;

 private:
  std::vector<std::unique_ptr<EntryStream>> parts_;
  size_t current_ = 0;
};

}  // namespace bookforge::book
