#include "book/entry_merge.h"

#include <algorithm>
#include <utility>

namespace bookforge::book {

MergedStream::MergedStream(std::vector<std::unique_ptr<EntryStream>> sources)
    : sources_(std::move(sources)), current_(sources_.size()) {
  heap_.reserve(sources_.size());
  for (size_t i = 0; i < sources_.size(); ++i)
    if (refill(i)) heap_.push_back({current_[i].key, current_[i].move, uint32_t(i)});
  std::make_heap(heap_.begin(), heap_.end(), [](const Head& a, const Head& b) { return b < a; });
}

bool MergedStream::refill(size_t source) {
  if (sources_[source]->next(current_[source])) return true;
  if (Status s = sources_[source]->status(); !s.ok() && status_.ok()) status_ = s;
  return false;
}

void MergedStream::sift_down(size_t i) {
  // Moves the smaller child up into the hole until the saved node fits there.
  const size_t n = heap_.size();
  const Head moving = heap_[i];
  for (;;) {
    size_t child = 2 * i + 1;
    if (child >= n) break;
    if (child + 1 < n && heap_[child + 1] < heap_[child]) ++child;
    if (!(heap_[child] < moving)) break;
    heap_[i] = heap_[child];
    i = child;
  }
  heap_[i] = moving;
}

void MergedStream::advance_top() {
  const size_t source = heap_.front().source;
  if (refill(source)) {
    heap_.front() = {current_[source].key, current_[source].move, uint32_t(source)};
  } else {
    heap_.front() = heap_.back();
    heap_.pop_back();
    if (heap_.empty()) return;
  }
  sift_down(0);
}

bool MergedStream::next(TallyEntry& entry) {
  if (heap_.empty() || !status_.ok()) return false;
  entry = top_entry();
  advance_top();
  // A source is sorted and holds each (key, move) once, so equal entries come from other sources.
  while (!heap_.empty() && heap_.front().key == entry.key && heap_.front().move == entry.move) {
    entry.add(top_entry());
    advance_top();
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

Status ConcatStream::status() const {
  return current_ < parts_.size() ? parts_[current_]->status() : ok_status();
}

}  // namespace bookforge::book
