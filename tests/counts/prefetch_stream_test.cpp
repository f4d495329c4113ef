// PrefetchStream: the same entries in the same order as its source, the source's error, and a
// clean stop when the consumer gives up early.
#include "counts/prefetch_stream.h"

#include "support/test_support.h"

namespace bookforge::counts {
namespace {

class CountingStream final : public EntryStream {
 public:
  CountingStream(size_t n, bool fail) : n_(n), fail_(fail) {}
  bool next(TallyEntry& e) override {
    if (at_ == n_) return false;
    e = TallyEntry{};
    e.key = 1000 + at_;
    e.move = uint16_t(1 + at_ % 7);
    e.games = uint32_t(at_++);
    return true;
  }
  Status status() const override { return fail_ ? Status(Error{"run file: truncated"}) : ok_status(); }

 private:
  size_t n_, at_ = 0;
  bool fail_;
};

TEST(PrefetchStream, DeliversEveryEntryInOrder) {
  for (size_t n :
       {size_t(0), size_t(1), size_t(16383), size_t(16384), size_t(16385), size_t(5 * 16384 + 3)}) {
    CountingStream source(n, false);
    PrefetchStream prefetched(source);
    TallyEntry e;
    size_t seen = 0;
    while (prefetched.next(e)) {
      ASSERT_EQ(e.key, 1000 + seen) << "n " << n;
      ASSERT_EQ(e.games, seen);
      ++seen;
    }
    EXPECT_EQ(seen, n);
    EXPECT_FALSE(prefetched.next(e));
    EXPECT_TRUE(prefetched.status().ok());
  }
}

TEST(PrefetchStream, PassesOnTheSourcesError) {
  CountingStream source(40000, true);
  PrefetchStream prefetched(source);
  TallyEntry e;
  size_t seen = 0;
  while (prefetched.next(e)) ++seen;
  EXPECT_EQ(seen, 40000u);
  ASSERT_FALSE(prefetched.status().ok());
  EXPECT_EQ(prefetched.status().error().message, "run file: truncated");
}

TEST(PrefetchStream, StopsWhenTheConsumerGivesUpEarly) {
  CountingStream source(1'000'000, false);
  {
    PrefetchStream prefetched(source);
    TallyEntry e;
    ASSERT_TRUE(prefetched.next(e));
  }  // the destructor must not wait for the whole source
  SUCCEED();
}

}  // namespace
}  // namespace bookforge::counts
