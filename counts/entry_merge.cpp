#include "counts/entry_merge.h"

#include <algorithm>
#include <utility>

namespace bookforge::counts {

namespace {

constexpr size_t kBatch = 256;

// a comes before b or with it in (key, move, slice) order, computed without a branch.
inline bool not_after(const TallyEntry& a, const TallyEntry& b) {
  return (a.key < b.key) | ((a.key == b.key) & (minor_order(a) <= minor_order(b)));
}

// The batches of one child of a two-way merge.
struct Input {
  explicit Input(std::unique_ptr<EntryStream> s) : stream(std::move(s)), batch(kBatch) {}
  std::unique_ptr<EntryStream> stream;
  std::vector<TallyEntry> batch;
  size_t position = 0, size = 0;
  bool ended = false;

  size_t available() const { return size - position; }
  // Reads the next batch once this one is used up; false at the end of the stream.
  bool fill() {
    if (position < size) return true;
    if (ended) return false;
    position = 0;
    size = stream->next_batch(batch.data(), batch.size());
    ended = size == 0;
    return !ended;
  }
};

// Two sorted streams as one; an entry in both comes out once, summed.
class PairMerge final : public EntryStream {
 public:
  PairMerge(std::unique_ptr<EntryStream> a, std::unique_ptr<EntryStream> b)
      : a_(std::move(a)), b_(std::move(b)) {}

  bool next(TallyEntry& entry) override { return next_batch(&entry, 1) == 1; }

  size_t next_batch(TallyEntry* out, size_t max) override {
    size_t n = 0;
    while (n < max && status_.ok()) {
      const bool a_has = a_.fill(), b_has = b_.fill();
      if (!a_has || !b_has) {
        // A child that stopped on an error stops the merge.
        if (Status s = a_has ? ok_status() : a_.stream->status(); !s.ok()) status_ = s;
        if (Status s = b_has ? ok_status() : b_.stream->status(); !s.ok() && status_.ok()) status_ = s;
        if (!status_.ok() || (!a_has && !b_has)) break;
        // One child has ended: the other's entries follow as they are.
        Input& rest = a_has ? a_ : b_;
        const size_t take = std::min(max - n, rest.available());
        std::copy_n(rest.batch.data() + rest.position, take, out + n);
        rest.position += take;
        n += take;
        continue;
      }
      // Each step takes one entry from a or from b, so this many steps stay within both.
      const size_t steps = std::min({max - n, a_.available(), b_.available()});
      const TallyEntry* pa = a_.batch.data() + a_.position;
      const TallyEntry* pb = b_.batch.data() + b_.position;
      for (size_t i = 0; i < steps; ++i) {
        const bool take_a = not_after(*pa, *pb);
        const bool equal = (pa->key == pb->key) & (minor_order(*pa) == minor_order(*pb));
        // Equal entries are summed (both children move on), with masks rather than a branch.
        out[n + i].assign_sum_if(take_a ? *pa : *pb, *pb, equal);
        pa += take_a;
        pb += !take_a | equal;
      }
      n += steps;
      a_.position = size_t(pa - a_.batch.data());
      b_.position = size_t(pb - b_.batch.data());
    }
    return n;
  }

  Status status() const override { return status_; }

 private:
  Input a_, b_;
  Status status_ = ok_status();
};

// A balanced tree of two-way merges over sources [begin, end).
std::unique_ptr<EntryStream> merge_tree(std::vector<std::unique_ptr<EntryStream>>& sources, size_t begin,
                                        size_t end) {
  if (end - begin == 1) return std::move(sources[begin]);
  const size_t middle = begin + (end - begin) / 2;
  auto left = merge_tree(sources, begin, middle);
  auto right = merge_tree(sources, middle, end);
  return std::make_unique<PairMerge>(std::move(left), std::move(right));
}

// An empty stream, for a merge of no sources.
class NoEntries final : public EntryStream {
 public:
  bool next(TallyEntry&) override { return false; }
  Status status() const override { return ok_status(); }
};

}  // namespace

MergedStream::MergedStream(std::vector<std::unique_ptr<EntryStream>> sources)
    : tree_(sources.empty() ? std::unique_ptr<EntryStream>(std::make_unique<NoEntries>())
                            : merge_tree(sources, 0, sources.size())) {}

MergedStream::~MergedStream() = default;

bool MergedStream::next(TallyEntry& entry) {
  if (one_position_ == one_size_) {
    one_position_ = 0;
    one_size_ = tree_->next_batch(one_.data(), one_.size());
    if (one_size_ == 0) return false;
  }
  entry = one_[one_position_++];
  return true;
}

bool ConcatStream::next(TallyEntry& entry) {
  for (; current_ < streams_.size(); ++current_) {
    if (streams_[current_]->next(entry)) return true;
    if (!streams_[current_]->status().ok()) return false;
  }
  return false;
}

size_t ConcatStream::next_batch(TallyEntry* out, size_t max) {
  size_t n = 0;
  while (n < max && current_ < streams_.size()) {
    size_t read = streams_[current_]->next_batch(out + n, max - n);
    n += read;
    if (n < max) {
      if (!streams_[current_]->status().ok()) break;
      ++current_;
    }
  }
  return n;
}

Status ConcatStream::status() const {
  return current_ < streams_.size() ? streams_[current_]->status() : ok_status();
}

}  // namespace bookforge::counts
