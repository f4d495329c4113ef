// The read-ahead stream: the same entries in the same order as its source, for any batch size,
// the source's error at the end, and a clean stop when the reader quits early.
#include "book/background_stream.h"

#include <gtest/gtest.h>

namespace bookforge::book {
namespace {

// Entries 1..count (key = i, move = i % 7 + 1); fails after `fail_after` entries if set.
class CountingStream : public EntryStream {
 public:
  CountingStream(uint64_t count, uint64_t fail_after = ~uint64_t(0))
      : count_(count), fail_after_(fail_after) {}
  bool next(TallyEntry& e) override {
    if (produced_ == fail_after_) {
      failed_ = true;
      return false;
    }
    if (produced_ == count_) return false;
    ++produced_;
    e = TallyEntry{};
    e.key = produced_;
    e.move = uint16_t(produced_ % 7 + 1);
    e.games = uint32_t(produced_ * 3);
    return true;
  }
  Status status() const override { return failed_ ? Status(Error{"run file: read error"}) : ok_status(); }

 private:
  uint64_t count_, fail_after_, produced_ = 0;
  bool failed_ = false;
};

TEST(BackgroundStream, YieldsTheSourceInOrder) {
  for (size_t batch : {size_t(1), size_t(3), size_t(100), size_t(8192)}) {
    for (uint64_t count : {0ull, 1ull, 99ull, 100ull, 10001ull}) {
      BackgroundStream stream(std::make_unique<CountingStream>(count), batch);
      TallyEntry e;
      uint64_t seen = 0;
      while (stream.next(e)) {
        ++seen;
        ASSERT_EQ(e.key, seen) << "batch " << batch << " count " << count;
        ASSERT_EQ(e.move, seen % 7 + 1);
        ASSERT_EQ(e.games, seen * 3);
      }
      EXPECT_EQ(seen, count) << "batch " << batch;
      EXPECT_TRUE(stream.status().ok());
      EXPECT_FALSE(stream.next(e));  // stays at the end
    }
  }
}

TEST(BackgroundStream, PassesOnTheSourceError) {
  BackgroundStream stream(std::make_unique<CountingStream>(1000, 250), 16);
  TallyEntry e;
  uint64_t seen = 0;
  while (stream.next(e)) ++seen;
  EXPECT_EQ(seen, 250u);
  ASSERT_FALSE(stream.status().ok());
  EXPECT_EQ(stream.status().error().message, "run file: read error");
}

TEST(BackgroundStream, StopsWhenTheReaderQuitsEarly) {
  // The producer is blocked on a full hand-over when the stream goes away: it must not hang.
  for (int i = 0; i < 20; ++i) {
    BackgroundStream stream(std::make_unique<CountingStream>(1'000'000), 64);
    TallyEntry e;
    for (int j = 0; j < i * 10; ++j) ASSERT_TRUE(stream.next(e));
  }
}

}  // namespace
}  // namespace bookforge::book
