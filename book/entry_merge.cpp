#include "book/entry_merge.h"

#include <algorithm>
#include <utility>

namespace bookforge::book {

namespace {
constexpr size_t kBatch = 256;
}

MergedStream::MergedStream(std::vector<std::unique_ptr<EntryStream>> sources) {
  while (leaves_ < sources.size()) leaves_ *= 2;
  order_.assign(leaves_, kEnd);
  sources_.resize(sources.size());
  for (size_t i = 0; i < sources.size(); ++i) {
    sources_[i].stream = std::move(sources[i]);
    sources_[i].batch.resize(kBatch);
    sources_[i].position = sources_[i].size = 0;
    advance(i);
  }
  // Play every match bottom-up: node n's winner is the smaller of its children's winners.
  std::vector<uint32_t> winner(2 * leaves_);
  for (size_t i = 0; i < leaves_; ++i) winner[leaves_ + i] = uint32_t(i);
  loser_.assign(leaves_, 0);
  for (size_t node = leaves_ - 1; node >= 1; --node) {
    uint32_t a = winner[2 * node], b = winner[2 * node + 1];
    if (order_[b] < order_[a]) std::swap(a, b);
    winner[node] = a;
    loser_[node] = b;
  }
  loser_[0] = winner[1];
}

void MergedStream::advance(size_t leaf) {
  Source& s = sources_[leaf];
  if (s.position + 1 < s.size) {
    order_[leaf] = order_of(s.batch[++s.position]);
    return;
  }
  s.position = 0;
  s.size = s.stream->next_batch(s.batch.data(), s.batch.size());
  if (s.size > 0) {
    order_[leaf] = order_of(s.batch[0]);
    return;
  }
  order_[leaf] = kEnd;
  if (Status st = s.stream->status(); !st.ok() && status_.ok()) status_ = st;
}

void MergedStream::replay(size_t leaf) {
  uint32_t winner = uint32_t(leaf);
  for (size_t node = (leaf + leaves_) / 2; node > 0; node /= 2) {
    const uint32_t other = loser_[node];
    const bool swap = order_[other] < order_[winner];
    loser_[node] = swap ? winner : other;
    winner = swap ? other : winner;
  }
  loser_[0] = winner;
}

bool MergedStream::next(TallyEntry& entry) {
  uint32_t w = loser_[0];
  const Order order = order_[w];
  if (order == kEnd || !status_.ok()) return false;
  entry = sources_[w].batch[sources_[w].position];
  advance(w);
  replay(w);
  // A source is sorted and holds each (key, move) once, so equal entries come from other sources.
  while (order_[w = loser_[0]] == order) {
    entry.add(sources_[w].batch[sources_[w].position]);
    advance(w);
    replay(w);
  }
  return status_.ok();
}

Status MergedStream::status() const { return status_; }

bool ConcatStream::next(TallyEntry& entry) {
  for (; current_ < parts_.size(); ++current_) {
    if (parts_[current_]->next(entry)) return true;
    if (!parts_[current_]->status().ok()) return false;
  }
  return false;
}

size_t ConcatStream::next_batch(TallyEntry* out, size_t max) {
  size_t n = 0;
  while (n < max && current_ < parts_.size()) {
    size_t read = parts_[current_]->next_batch(out + n, max - n);
    n += read;
    if (n < max) {
      if (!parts_[current_]->status().ok()) break;
      ++current_;
    }
  }
  return n;
}

Status ConcatStream::status() const {
  return current_ < parts_.size() ? parts_[current_]->status() : ok_status();
}

}  // namespace bookforge::book
