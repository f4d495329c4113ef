#include "counts/prefetch_stream.h"

namespace bookforge::counts {

PrefetchStream::PrefetchStream(EntryStream& source) : source_(source), thread_([this] { produce(); }) {}

PrefetchStream::~PrefetchStream() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void PrefetchStream::produce() {
  for (;;) {
    std::vector<TallyEntry> block;
    block.reserve(kBlockEntries);
    TallyEntry e;
    while (block.size() < kBlockEntries && source_.next(e)) block.push_back(e);
    const bool last = block.size() < kBlockEntries;
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return stop_ || ready_.size() < kBlocksAhead; });
    if (stop_) return;
    if (!block.empty()) ready_.push_back(std::move(block));
    if (last) {
      done_ = true;
      status_ = source_.status();
    }
    lock.unlock();
    changed_.notify_all();
    if (last) return;
  }
}

bool PrefetchStream::next(TallyEntry& entry) {
  if (position_ == current_.size()) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return !ready_.empty() || done_; });
    if (ready_.empty()) return false;
    current_ = std::move(ready_.front());
    ready_.pop_front();
    position_ = 0;
    lock.unlock();
    changed_.notify_all();
  }
  entry = current_[position_++];
  return true;
}

Status PrefetchStream::status() const {
  std::lock_guard lock(mutex_);
  return status_;
}

}  // namespace bookforge::counts
