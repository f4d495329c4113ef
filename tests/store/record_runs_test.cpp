// Byte records sorted on disk (store/record_runs.h): what comes back is every record, in
// (major, minor) order, equal keys in the order they were added, however often they spilled.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "store/record_runs.h"
#include "support/test_support.h"

namespace bookforge::store {
namespace {

struct Record {
  int64_t major, minor;
  std::string bytes;
  bool operator==(const Record&) const = default;
};

std::vector<Record> merged(const std::vector<RecordRuns*>& sources, size_t memory) {
  RecordMerge merge(sources, memory);
  std::vector<Record> out;
  while (merge.next()) out.push_back({merge.major(), merge.minor(), std::string(merge.bytes())});
  EXPECT_TRUE(merge.status().ok()) << merge.status().error().message;
  return out;
}

// Records with keys from a small range (many equal ones, negative ones too) and lengths from 0
// to a few hundred bytes, one of them larger than a read buffer.
std::vector<Record> random_records(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Record> records;
  for (size_t i = 0; i < n; ++i) {
    Record r{int64_t(rng() % 64) - 32, int64_t(rng() % 4), std::string(rng() % 300, 'a')};
    for (char& c : r.bytes) c = char(rng());
    records.push_back(std::move(r));
  }
  records[n / 2].bytes.assign(100000, 'x');
  return records;
}

std::vector<Record> expected_order(std::vector<Record> records) {
  std::stable_sort(records.begin(), records.end(), [](const Record& a, const Record& b) {
    return std::tie(a.major, a.minor) < std::tie(b.major, b.minor);
  });
  return records;
}

TEST(RecordRuns, EveryRecordComesBackInOrderHowEverOftenItSpilled) {
  test::TempDir tmp;
  const std::vector<Record> records = random_records(3000, 7);
  for (size_t memory : {size_t(1) << 30, size_t(4096), size_t(1)}) {
    RecordRuns runs(tmp.path().string(), memory);
    for (const Record& r : records) ASSERT_TRUE(runs.add(r.major, r.minor, r.bytes).ok());
    if (memory == size_t(1) << 30) {
      EXPECT_EQ(runs.runs(), 0u);
    } else {
      EXPECT_GT(runs.runs(), 50u);
    }
    EXPECT_EQ(runs.records(), records.size());
    // The smallest read buffers (4 KiB): the large record and records across buffer ends.
    EXPECT_EQ(merged({&runs}, 0), expected_order(records)) << "memory " << memory;
  }
}

TEST(RecordRuns, SeveralSourcesMergeTiesInSourceOrder) {
  test::TempDir tmp;
  const std::vector<Record> first = random_records(500, 1), second = random_records(500, 2);
  RecordRuns a(tmp.path().string(), 2000), b(tmp.path().string(), 1 << 20);
  for (const Record& r : first) ASSERT_TRUE(a.add(r.major, r.minor, r.bytes).ok());
  for (const Record& r : second) ASSERT_TRUE(b.add(r.major, r.minor, r.bytes).ok());
  ASSERT_TRUE(b.spill().ok());  // b's records all on disk, a's partly
  std::vector<Record> all = first;
  all.insert(all.end(), second.begin(), second.end());
  EXPECT_EQ(merged({&a, &b}, 1 << 20), expected_order(all));
}

TEST(RecordRuns, NothingAddedIsAnEmptyMerge) {
  test::TempDir tmp;
  RecordRuns runs(tmp.path().string(), 100);
  ASSERT_TRUE(runs.spill().ok());
  EXPECT_TRUE(merged({&runs}, 100).empty());
  EXPECT_TRUE(merged({}, 100).empty());
}

TEST(RecordRuns, AFolderThatCannotBeWrittenIsAnError) {
  RecordRuns runs("/nonexistent-bookforge-folder", 1);
  const Status s = runs.add(1, 2, "abc");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("/nonexistent-bookforge-folder"), std::string::npos) << s.error().message;
}

}  // namespace
}  // namespace bookforge::store
