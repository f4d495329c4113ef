// The bench's node count, pinned: a change of search or evaluation shows up here, as it does
// in engine projects' "Bench: N" commit lines.
#include <gtest/gtest.h>

#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/bench.h"

namespace bookforge::engine {
namespace {

// What `bookforge bench` prints as "Nodes searched" (default depth and hash, one thread, fresh
// table; the same in Release and Debug builds). When a change of search or evaluation moves it
// on purpose, run `bookforge bench --quiet`, put its count here and write "Bench: <count>" in
// the commit message. When a change that was meant to leave the search alone moves it, the
// change has a bug.
constexpr uint64_t kBenchNodes = 2072680;

// For the tests of the bench's workings, which need no deep search (Debug and sanitizer builds
// run these tests too).
constexpr int kShallowDepth = 5;

TEST(Bench, DefaultRunSearchesThePinnedNodeCount) {
  const Result<uint64_t> nodes = run_bench(BenchSettings{});
  ASSERT_TRUE(nodes.ok()) << nodes.error().message;
  EXPECT_EQ(*nodes, kBenchNodes) << "the search changed: if on purpose, pin the new count (see kBenchNodes)";
}

TEST(Bench, ReportsEveryPositionInOrderAndTheirSum) {
  BenchSettings shallow;
  shallow.depth = kShallowDepth;
  std::vector<BenchPosition> reported;
  const Result<uint64_t> total = run_bench(shallow, [&](const BenchPosition& p) { reported.push_back(p); });
  ASSERT_TRUE(total.ok()) << total.error().message;
  ASSERT_EQ(reported.size(), bench_positions().size());
  uint64_t sum = 0;
  for (size_t i = 0; i < reported.size(); ++i) {
    EXPECT_EQ(reported[i].number, i + 1);
    EXPECT_EQ(reported[i].fen, bench_positions()[i]);
    EXPECT_GT(reported[i].nodes, 0u) << reported[i].fen;
    sum += reported[i].nodes;
  }
  EXPECT_EQ(sum, *total);
}

// Each run starts from a fresh engine: nothing learned in one run carries into the next.
TEST(Bench, SecondRunCountsTheSameAsTheFirst) {
  BenchSettings shallow;
  shallow.depth = kShallowDepth;
  const Result<uint64_t> first = run_bench(shallow);
  const Result<uint64_t> second = run_bench(shallow);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(*first, *second);
}

}  // namespace
}  // namespace bookforge::engine
