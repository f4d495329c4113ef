#include "book/entry_merge.h"

#include <utility>

namespace bookforge::book {

MergedStream::MergedStream(std::vector<std::unique_ptr<EntryStream>> sources) : sources_(std::move(sources)) {
  heap_.reserve(sources_.size());
  for (size_t i = 0; i < sources_.size(); ++i) pull(i);
}

void MergedStream::pull(size_t source) {
  Head head{{}, source};
  if (sources_[source]->next(head.entry)) {
    heap_.push_back(head);
    sift_up(heap_.size() - 1);
  } else if (Status s = sources_[source]->status(); !s.ok() && status_.ok()) {
    status_ = s;
  }
}

void MergedStream::sift_up(size_t i) {
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (!tally_order(heap_[i].entry, heap_[parent].entry)) break;
    std::swap(heap_[i], heap_[parent]);
    i = parent;
  }
}

void MergedStream::sift_down(size_t i) {
  // Moves the smaller child up into the hole until the saved head fits there.
  const size_t n = heap_.size();
  Head moving = heap_[i];
  for (;;) {
    size_t child = 2 * i + 1;
    if (child >= n) break;
    if (child + 1 < n && tally_order(heap_[child + 1].entry, heap_[child].entry)) ++child;
    if (!tally_order(heap_[child].entry, moving.entry)) break;
    heap_[i] = heap_[child];
    i = child;
  }
  heap_[i] = moving;
}

MergedStream::Head MergedStream::pop() {
  // Refill the top from its own source and sift it down once, rather than removing it and
  // pushing the source's next entry (half the comparisons and moves on a long merge).
  Head top = heap_.front();
  if (sources_[top.source]->next(heap_.front().entry)) {
    sift_down(0);
    return top;
  }
  if (Status s = sources_[top.source]->status(); !s.ok() && status_.ok()) status_ = s;
  heap_.front() = heap_.back();
  heap_.pop_back();
  if (!heap_.empty()) sift_down(0);
  return top;
}

bool MergedStream::next(TallyEntry& entry) {
  if (heap_.empty() || !status_.ok()) return false;
  entry = pop().entry;
  // A source is sorted and holds each (key, move) once, so equal entries come from other sources.
  while (!heap_.empty() && heap_.front().entry.key == entry.key && heap_.front().entry.move == entry.move)
    entry.add(pop().entry);
  return status_.ok();
}

Status MergedStream::status() const { return status_; }

}  // namespace bookforge::book
