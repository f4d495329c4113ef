#include "engine/tt.h"

#include <gtest/gtest.h>

namespace bookforge::engine {
namespace {

// Keys below 2^32 all land in bucket 0 (the bucket comes from the high bits of the key) and
// differ in their check bits: a way to fill one bucket on purpose.
constexpr uint64_t same_bucket_key(uint32_t i) { return uint64_t(i) + 1; }

const chess::Move kMoveA(chess::kE2, chess::kE4);
const chess::Move kMoveB(chess::kG1, chess::kF3);

TEST(TranspositionTable, LayoutIsPacked) {
  EXPECT_LE(sizeof(TTEntry), 16u);
  EXPECT_EQ(sizeof(TTBucket), 64u);
  EXPECT_EQ(alignof(TTBucket), 64u);
}

TEST(TranspositionTable, SizeFollowsMegabytes) {
  TranspositionTable tt(2);
  EXPECT_EQ(tt.megabytes(), 2u);
  EXPECT_EQ(tt.bucket_count(), (2u << 20) / 64);
  ASSERT_TRUE(tt.resize(4).ok());
  EXPECT_EQ(tt.bucket_count(), (4u << 20) / 64);
}

TEST(TranspositionTable, StoreThenProbe) {
  TranspositionTable tt(1);
  const uint64_t key = 0x9D39247E33776D41ULL;
  TTData d;
  EXPECT_FALSE(tt.probe(key, 0, d));
  tt.store(key, 0, kMoveA, 37, 12, 9, Bound::kExact);
  ASSERT_TRUE(tt.probe(key, 0, d));
  EXPECT_EQ(d.move, kMoveA);
  EXPECT_EQ(d.score, 37);
  EXPECT_EQ(d.eval, 12);
  EXPECT_EQ(d.depth, 9);
  EXPECT_EQ(d.bound, Bound::kExact);
  // Another key with the same bucket bits but other check bits is a miss.
  EXPECT_FALSE(tt.probe(key ^ 1, 0, d));
}

TEST(TranspositionTable, BoundsAndNegativeValuesRoundTrip) {
  TranspositionTable tt(1);
  for (Bound b : {Bound::kUpper, Bound::kLower, Bound::kExact}) {
    const uint64_t key = 0x1000000000ULL * (uint64_t(b) + 7);
    tt.store(key, 3, chess::Move::none(), -250, -31, TranspositionTable::kMinDepth, b);
    TTData d;
    ASSERT_TRUE(tt.probe(key, 3, d));
    EXPECT_EQ(d.bound, b);
    EXPECT_EQ(d.score, -250);
    EXPECT_EQ(d.eval, -31);
    EXPECT_EQ(d.depth, TranspositionTable::kMinDepth);
    EXPECT_FALSE(d.move.is_ok());
  }
  EXPECT_TRUE(has_lower(Bound::kExact) && has_upper(Bound::kExact));
  EXPECT_TRUE(has_lower(Bound::kLower) && !has_upper(Bound::kLower));
  EXPECT_TRUE(!has_lower(Bound::kUpper) && has_upper(Bound::kUpper));
}

TEST(TranspositionTable, MateScoresAreStoredRelativeToTheNode) {
  TranspositionTable tt(1);
  const uint64_t key = 0xABCDEF0123456789ULL;
  // Found at ply 5: "mate in 3 plies from here" = mate_in(8) seen from the root.
  tt.store(key, 5, kMoveA, mate_in(8), kScoreNone, 4, Bound::kExact);
  TTData d;
  ASSERT_TRUE(tt.probe(key, 5, d));
  EXPECT_EQ(d.score, mate_in(8));
  // Reached through a transposition at ply 2, the same mate is 3 plies away: mate_in(5).
  ASSERT_TRUE(tt.probe(key, 2, d));
  EXPECT_EQ(d.score, mate_in(5));
  // Being mated works the same way, with the opposite sign.
  tt.store(key, 6, kMoveA, mated_in(10), kScoreNone, 4, Bound::kUpper);
  ASSERT_TRUE(tt.probe(key, 1, d));
  EXPECT_EQ(d.score, mated_in(5));
  // Ordinary scores do not move.
  tt.store(key, 6, kMoveA, 250, kScoreNone, 4, Bound::kExact);
  ASSERT_TRUE(tt.probe(key, 1, d));
  EXPECT_EQ(d.score, 250);
  EXPECT_EQ(score_from_tt(score_to_tt(kScoreNone, 9), 3), kScoreNone);
}

TEST(TranspositionTable, SameKeyKeepsDeeperBoundButLearnsMove) {
  TranspositionTable tt(1);
  const uint64_t key = 0x0123456789ABCDEFULL;
  tt.store(key, 0, chess::Move::none(), 100, 0, 12, Bound::kLower);
  tt.store(key, 0, kMoveB, -40, 0, 3, Bound::kUpper);  // shallow bound: the deep one stays
  TTData d;
  ASSERT_TRUE(tt.probe(key, 0, d));
  EXPECT_EQ(d.depth, 12);
  EXPECT_EQ(d.score, 100);
  EXPECT_EQ(d.move, kMoveB);
  tt.store(key, 0, chess::Move::none(), 15, 0, 5, Bound::kExact);  // an exact score always replaces
  ASSERT_TRUE(tt.probe(key, 0, d));
  EXPECT_EQ(d.depth, 5);
  EXPECT_EQ(d.score, 15);
  EXPECT_EQ(d.move, kMoveB);  // a result without a move keeps the old one
}

TEST(TranspositionTable, FullBucketReplacesTheShallowestEntry) {
  TranspositionTable tt(1);
  const int depths[TTBucket::kEntries] = {9, 3, 12, 7, 10};
  for (int i = 0; i < TTBucket::kEntries; ++i)
    tt.store(same_bucket_key(i), 0, kMoveA, i, 0, depths[i], Bound::kExact);
  TTData d;
  for (int i = 0; i < TTBucket::kEntries; ++i) ASSERT_TRUE(tt.probe(same_bucket_key(i), 0, d)) << i;

  tt.store(same_bucket_key(100), 0, kMoveB, 0, 0, 5, Bound::kLower);
  EXPECT_TRUE(tt.probe(same_bucket_key(100), 0, d));
  EXPECT_FALSE(tt.probe(same_bucket_key(1), 0, d));  // depth 3 was the least worth
  for (int i : {0, 2, 3, 4}) EXPECT_TRUE(tt.probe(same_bucket_key(i), 0, d)) << i;
}

TEST(TranspositionTable, OldGenerationsAreReplacedFirst) {
  TranspositionTable tt(1);
  // Deep entries from a search long ago...
  for (int i = 0; i < TTBucket::kEntries - 1; ++i)
    tt.store(same_bucket_key(i), 0, kMoveA, 0, 0, 20, Bound::kExact);
  for (int g = 0; g < 3; ++g) tt.new_search();
  // ...and a shallow one from the current search.
  tt.store(same_bucket_key(50), 0, kMoveA, 0, 0, 2, Bound::kExact);
  // The next store evicts an aged deep entry, not the fresh shallow one.
  tt.store(same_bucket_key(51), 0, kMoveB, 0, 0, 1, Bound::kExact);
  TTData d;
  EXPECT_TRUE(tt.probe(same_bucket_key(50), 0, d));
  EXPECT_TRUE(tt.probe(same_bucket_key(51), 0, d));
  int old_left = 0;
  for (int i = 0; i < TTBucket::kEntries - 1; ++i) old_left += tt.probe(same_bucket_key(i), 0, d);
  EXPECT_EQ(old_left, TTBucket::kEntries - 2);
}

TEST(TranspositionTable, ProbeRefreshesTheGeneration) {
  TranspositionTable tt(1);
  for (int i = 0; i < TTBucket::kEntries; ++i)
    tt.store(same_bucket_key(i), 0, kMoveA, 0, 0, 10, Bound::kExact);
  for (int g = 0; g < 4; ++g) tt.new_search();
  TTData d;
  ASSERT_TRUE(tt.probe(same_bucket_key(0), 0, d));  // used again in this search: now young
  tt.store(same_bucket_key(77), 0, kMoveB, 0, 0, 1, Bound::kExact);
  EXPECT_TRUE(tt.probe(same_bucket_key(0), 0, d));
  EXPECT_TRUE(tt.probe(same_bucket_key(77), 0, d));
}

TEST(TranspositionTable, GenerationWrapsAndClearEmpties) {
  TranspositionTable tt(1);
  for (int g = 0; g < 64; ++g) tt.new_search();
  EXPECT_EQ(tt.generation(), 0);
  tt.store(42, 0, kMoveA, 1, 1, 1, Bound::kExact);
  EXPECT_GT(tt.hashfull(), 0);
  tt.clear();
  TTData d;
  EXPECT_FALSE(tt.probe(42, 0, d));
  EXPECT_EQ(tt.hashfull(), 0);
}

TEST(TranspositionTable, HashfullCountsOnlyThisGeneration) {
  TranspositionTable tt(1);
  // Fill the sampled buckets (the first 200). With 2^k buckets, bucket b holds the keys whose
  // top k bits are b.
  ASSERT_EQ(tt.bucket_count() & (tt.bucket_count() - 1), 0u);
  const int shift = 64 - __builtin_ctzll(tt.bucket_count());
  for (uint64_t b = 0; b < 200; ++b)
    for (int e = 0; e < TTBucket::kEntries; ++e)
      tt.store((b << shift) + 1 + e, 0, kMoveA, 0, 0, 5, Bound::kExact);
  EXPECT_EQ(tt.hashfull(), 1000);
  tt.new_search();
  EXPECT_EQ(tt.hashfull(), 0);
}

}  // namespace
}  // namespace bookforge::engine
