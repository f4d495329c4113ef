// An entry stream read ahead on its own thread, so that producing entries (the tally's k-way
// merge of tables and spilled runs) overlaps with consuming them (the selection rules and the
// book writer in build, SQLite inserting the rows in db add): by then the parser threads are
// done and a core is free. Entries travel in blocks, a few blocks ahead at most, so memory
// stays small and locking is rare.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "counts/entry.h"

namespace bookforge::counts {

class PrefetchStream final : public EntryStream {
 public:
  // `source` must outlive this stream; it is read from the prefetch thread only.
  explicit PrefetchStream(EntryStream& source);
  ~PrefetchStream() override;  // stops the thread, even before the end of the source
  PrefetchStream(const PrefetchStream&) = delete;
  PrefetchStream& operator=(const PrefetchStream&) = delete;

  bool next(TallyEntry& entry) override;
  Status status() const override;

 private:
  static constexpr size_t kBlockEntries = 16384;
  static constexpr size_t kBlocksAhead = 4;

  void produce();

  EntryStream& source_;
  std::vector<TallyEntry> current_;  // the consumer's block
  size_t position_ = 0;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::vector<TallyEntry>> ready_;  // guarded by mutex_
  bool done_ = false;                          // guarded: the source is exhausted
  bool stop_ = false;                          // guarded: the consumer went away
  Status status_ = ok_status();                // guarded: the source's, once done_
  std::thread thread_;
};

}  // namespace bookforge::counts
