// The k-way merge that turns several sorted entry streams (a partition's spilled runs and its
// sorted tables) into one stream in (key, move) order with equal (key, move) entries summed.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "counts/entry.h"
#include "counts/slots.h"

namespace bookforge::counts {

// A sorted array of slots (TallyEntry, or a narrow slot converted field by field: slots.h)
// seen as a stream; slots with move 0 are empty and skipped. The array must outlive the stream.
template <class Slot>
class SpanStream : public EntryStream {
 public:
  SpanStream(const Slot* begin, const Slot* end) : next_(begin), end_(end) {}
  explicit SpanStream(std::span<const Slot> slots) : SpanStream(slots.data(), slots.data() + slots.size()) {}
  bool next(TallyEntry& entry) override { return next_batch(&entry, 1) == 1; }
  size_t next_batch(TallyEntry* out, size_t max) override {
    // An ordered table is about a third empty, at random places: every slot is written out and
    // kept only if used, so that there is no branch to mispredict per slot.
    size_t n = 0;
    const Slot* p = next_;
    for (; p != end_ && n < max; ++p) {
      fill_entry(*p, out[n]);
      n += p->move != 0;
    }
    next_ = p;
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
// A balanced tree of two-way merges, a batch at a time: each merge takes from whichever child
// has the smaller (key, move), or from both, summed, when they hold the same one; as many
// entries as both children's batches surely hold, with every choice computed rather than
// branched on (which source comes next is a coin toss for Zobrist keys, and a mispredicted
// branch per entry was most of a merge's cost).
class MergedStream : public EntryStream {
 public:
  explicit MergedStream(std::vector<std::unique_ptr<EntryStream>> sources);
  ~MergedStream() override;
  bool next(TallyEntry& entry) override;
  size_t next_batch(TallyEntry* out, size_t max) override { return tree_->next_batch(out, max); }
  Status status() const override { return tree_->status(); }

 private:
  std::unique_ptr<EntryStream> tree_;
  std::vector<TallyEntry> one_ = std::vector<TallyEntry>(256);  // next() reads through it
  size_t one_position_ = 0, one_size_ = 0;
};

// Streams read one after another: the whole is in order when each stream is, and each one's
// entries come before the next one's.
class ConcatStream : public EntryStream {
 public:
  explicit ConcatStream(std::vector<std::unique_ptr<EntryStream>> streams) : streams_(std::move(streams)) {}
  bool next(TallyEntry& entry) override;
  size_t next_batch(TallyEntry* out, size_t max) override;
  Status status() const override;

 private:
  std::vector<std::unique_ptr<EntryStream>> streams_;
  size_t current_ = 0;
};

}  // namespace bookforge::counts
