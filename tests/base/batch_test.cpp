// Batches i/N of a list: they cover it once, in order, for any size; "i/N" is read strictly.
#include "base/batch.h"

#include <gtest/gtest.h>

namespace bookforge {
namespace {

TEST(Batch, TheBatchesCoverTheListOnceInOrder) {
  for (size_t items : {0, 1, 2, 5, 17, 100}) {
    for (uint32_t count = 1; count <= 7; ++count) {
      size_t next = 0;
      for (uint32_t index = 0; index < count; ++index) {
        const Batch b{index, count};
        EXPECT_EQ(b.begin(items), next) << index << "/" << count << " of " << items;
        EXPECT_LE(b.end(items) - b.begin(items), items / count + 1);
        next = b.end(items);
      }
      EXPECT_EQ(next, items);
    }
  }
}

TEST(Batch, ReadsIOfNAndNothingElse) {
  Result<Batch> b = parse_batch("2/3");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*b, (Batch{2, 3}));
  EXPECT_EQ(b->describe(), "2/3");
  for (const char* bad : {"3/3", "0/0", "1", "/2", "1/", "a/2", "-1/2", "1/2x", " 1/2", "1/2000000"}) {
    Result<Batch> r = parse_batch(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.error().message.find(std::string("'") + bad + "'"), std::string::npos) << r.error().message;
  }
}

}  // namespace
}  // namespace bookforge
