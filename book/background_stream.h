// An entry stream read ahead by a thread of its own, so that producing the entries (the k-way
// merge of the tally's tables and runs) and consuming them (the selection rules, the book
// writer, the SQLite store) run on two cores instead of one.
//
//   source --next()--> [producer thread] --batches--> next() of the consumer
//
// Entries are handed over in batches of a few thousand, two in flight at most, so the
// hand-over costs one lock per batch and memory stays a few MB. The stream yields exactly the
// source's entries in the source's order, then the source's status.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "book/tally_entry.h"

namespace bookforge::book {

class BackgroundStream : public EntryStream {
 public:
  explicit BackgroundStream(std::unique_ptr<EntryStream> source, size_t batch_entries = 8192);
  // Stops the producer if the consumer quits early.
  ~BackgroundStream() override;
  BackgroundStream(const BackgroundStream&) = delete;
  BackgroundStream& operator=(const BackgroundStream&) = delete;

  bool next(TallyEntry& entry) override;
  Status status() const override;

 private:
  void produce();

  std::unique_ptr<EntryStream> source_;
  const size_t batch_entries_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::vector<TallyEntry>> ready_;  // full batches, oldest first
  std::vector<std::vector<TallyEntry>> spare_;  // emptied batches for the producer to reuse
  bool finished_ = false;                       // the producer has queued its last batch
  bool stopping_ = false;                       // the consumer is gone
  Status status_ = ok_status();                 // the source's, once finished

  std::vector<TallyEntry> current_;  // the consumer's batch
  size_t position_ = 0;
  std::thread producer_;  // last: started once everything above exists
};

}  // namespace bookforge::book
