#include "book/background_stream.h"

#include <algorithm>

namespace bookforge::book {
namespace {
constexpr size_t kBatchesInFlight = 2;
}

BackgroundStream::BackgroundStream(std::unique_ptr<EntryStream> source, size_t batch_entries)
    : source_(std::move(source)), batch_entries_(std::max<size_t>(batch_entries, 1)) {
  producer_ = std::thread([this] { produce(); });
}

BackgroundStream::~BackgroundStream() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  producer_.join();
}

void BackgroundStream::produce() {
  std::vector<TallyEntry> batch;
  for (;;) {
    batch.clear();
    batch.reserve(batch_entries_);
    TallyEntry entry;
    bool more = true;
    while (batch.size() < batch_entries_ && (more = source_->next(entry))) batch.push_back(entry);

    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return ready_.size() < kBatchesInFlight || stopping_; });
    if (stopping_) return;
    if (!batch.empty()) ready_.push_back(std::move(batch));
    if (!more) {
      status_ = source_->status();
      finished_ = true;
      changed_.notify_all();
      return;
    }
    if (!spare_.empty()) {
      batch = std::move(spare_.back());
      spare_.pop_back();
    } else {
      batch = {};
    }
    changed_.notify_all();
  }
}

bool BackgroundStream::next(TallyEntry& entry) {
  if (position_ == current_.size()) {
    std::unique_lock lock(mutex_);
    if (!current_.empty()) spare_.push_back(std::move(current_));
    current_.clear();
    position_ = 0;
    changed_.wait(lock, [&] { return !ready_.empty() || finished_; });
    if (ready_.empty()) return false;
    current_ = std::move(ready_.front());
    ready_.erase(ready_.begin());
    changed_.notify_all();
  }
  entry = current_[position_++];
  return true;
}

Status BackgroundStream::status() const {
  std::lock_guard lock(mutex_);
  return status_;
}

}  // namespace bookforge::book
