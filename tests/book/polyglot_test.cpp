// The Polyglot writer and reader: byte layout, ordering, atomic writing, validation of damaged
// files, the key search, and merging without 16-bit wrap-around.
#include <algorithm>
#include <random>

#include "book/polyglot/merge.h"
#include "book/polyglot/reader.h"
#include "book/polyglot/writer.h"
#include "support/test_support.h"

namespace bookforge::book {
namespace {

std::string bytes_of(const std::vector<PolyglotEntry>& entries) {
  std::string out(entries.size() * 16, '\0');
  for (size_t i = 0; i < entries.size(); ++i)
    encode_entry(entries[i], reinterpret_cast<unsigned char*>(&out[i * 16]));
  return out;
}

PolyglotBook open_or_die(const std::filesystem::path& path) {
  auto book = PolyglotBook::open(path.string());
  if (!book.ok()) ADD_FAILURE() << book.error().message;
  return std::move(*book);
}

TEST(PolyglotFormat, EncodesBigEndian) {
  unsigned char out[16];
  encode_entry({0x0102030405060708ULL, 0x090a, 0x0b0c, 0x0d0e0f10u}, out);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out[i], i + 1);
  EXPECT_EQ(decode_entry(out), (PolyglotEntry{0x0102030405060708ULL, 0x090a, 0x0b0c, 0x0d0e0f10u}));
}

TEST(PolyglotWriter, SortsEachPositionAndRenamesIntoPlace) {
  test::TempDir tmp;
  auto writer = PolyglotWriter::create((tmp / "out.bin").string());
  ASSERT_TRUE(writer.ok());
  std::vector<PolyglotEntry> first = {{5, 0x31c, 10, 0}, {5, 0x21c, 30, 0}, {5, 0x11c, 10, 0}};
  std::vector<PolyglotEntry> second = {{9, 0x01, 1, 7}};
  ASSERT_TRUE(writer->add_position(first).ok());
  // Nothing visible under the final name until commit.
  EXPECT_FALSE(std::filesystem::exists(tmp / "out.bin"));
  ASSERT_TRUE(writer->add_position(second).ok());
  std::vector<PolyglotEntry> earlier = {{7, 0x01, 1, 0}};
  EXPECT_FALSE(writer->add_position(earlier).ok()) << "keys must increase";
  auto written = writer->commit();
  ASSERT_TRUE(written.ok());
  EXPECT_EQ(*written, 4u);
  std::vector<PolyglotEntry> expected = {
      {5, 0x21c, 30, 0}, {5, 0x11c, 10, 0}, {5, 0x31c, 10, 0}, {9, 0x01, 1, 7}};
  EXPECT_EQ(test::read_file(tmp / "out.bin"), bytes_of(expected));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(tmp.path()), {}), 1)
      << "temporary file left behind";
}

TEST(PolyglotWriter, AbandonedWriterLeavesNothing) {
  test::TempDir tmp;
  {
    auto writer = PolyglotWriter::create((tmp / "out.bin").string());
    ASSERT_TRUE(writer.ok());
    std::vector<PolyglotEntry> entries = {{5, 1, 1, 0}};
    ASSERT_TRUE(writer->add_position(entries).ok());
  }
  EXPECT_TRUE(std::filesystem::is_empty(tmp.path()));
}

// A later partition's writer is filled apart (on another thread) and appended in key order;
// neither its file nor the book's shows in the folder until the commit, its bytes end up
// exactly where they belong, and the writer's invariant (is_ok) holds throughout.
TEST(PolyglotWriter, PartitionsAppendInKeyOrder) {
  test::TempDir tmp;
  auto writer = PolyglotWriter::create((tmp / "out.bin").string());
  auto partition = PolyglotWriter::create_for_partition(tmp.path().string());
  auto empty = PolyglotWriter::create_for_partition(tmp.path().string());
  ASSERT_TRUE(writer.ok() && partition.ok() && empty.ok());
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(tmp.path()), {}), 0)
      << "the book and its partitions have no name while they are written";
  std::vector<PolyglotEntry> expected;
  // More than a write buffer's worth, so that the partition goes through its file.
  for (uint64_t key = 1; key <= 100000; ++key) {
    std::vector<PolyglotEntry> position = {{key, uint16_t(key & 0xfff), 2, 0}, {key, 0x7777, 9, 0}};
    ASSERT_TRUE((key <= 40000 ? *writer : *partition).add_position(position).ok());
    std::sort(position.begin(), position.end(), book_order);
    expected.insert(expected.end(), position.begin(), position.end());
  }
  EXPECT_TRUE(writer->is_ok());
  EXPECT_TRUE(partition->is_ok());
  EXPECT_FALSE(partition->commit().ok()) << "a partition is appended, not committed";
  ASSERT_TRUE(writer->append(*empty).ok());
  ASSERT_TRUE(writer->append(*partition).ok());
  EXPECT_EQ(writer->positions(), 100000u);
  ASSERT_TRUE(writer->append(*partition).ok()) << "appended once, the partition is empty";
  EXPECT_TRUE(writer->is_ok());
  EXPECT_TRUE(partition->is_ok());
  std::vector<PolyglotEntry> later = {{200000, 1, 1, 0}};
  ASSERT_TRUE(writer->add_position(later).ok());
  expected.push_back(later[0]);
  auto written = writer->commit();
  ASSERT_TRUE(written.ok());
  EXPECT_EQ(*written, expected.size());
  EXPECT_TRUE(test::read_file(tmp / "out.bin") == bytes_of(expected));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(tmp.path()), {}), 1);
}

TEST(PolyglotWriter, PartitionsOutOfOrderAreRefused) {
  test::TempDir tmp;
  auto writer = PolyglotWriter::create((tmp / "out.bin").string());
  auto partition = PolyglotWriter::create_for_partition(tmp.path().string());
  ASSERT_TRUE(writer.ok() && partition.ok());
  std::vector<PolyglotEntry> high = {{50, 1, 1, 0}}, low = {{10, 1, 1, 0}};
  ASSERT_TRUE(writer->add_position(high).ok());
  ASSERT_TRUE(partition->add_position(low).ok());
  EXPECT_FALSE(writer->append(*partition).ok());
}

TEST(PolyglotWriter, MissingFolderIsAnError) {
  auto writer = PolyglotWriter::create("/nonexistent-folder/out.bin");
  ASSERT_FALSE(writer.ok());
  EXPECT_NE(writer.error().message.find("/nonexistent-folder"), std::string::npos);
}

TEST(PolyglotReader, FindsEveryKeyAndAgreesWithLowerBound) {
  // Uniform keys with runs of equal keys, plus the extremes 0 and 2^64-1.
  std::mt19937_64 rng(3);
  std::vector<PolyglotEntry> entries;
  for (int i = 0; i < 20000; ++i) {
    uint64_t key = rng();
    int moves = 1 + int(rng() % 4);
    for (int m = 0; m < moves; ++m) entries.push_back({key, uint16_t(m + 1), uint16_t(100 - m), 0});
  }
  entries.push_back({0, 1, 1, 0});
  entries.push_back({~0ull, 1, 1, 0});
  std::sort(entries.begin(), entries.end(), book_order);
  test::TempDir tmp;
  test::write_file(tmp / "b.bin", bytes_of(entries));
  PolyglotBook book = open_or_die(tmp / "b.bin");
  ASSERT_EQ(book.size(), entries.size());
  std::vector<uint64_t> keys;
  for (const auto& e : entries) keys.push_back(e.key);
  // Present keys, absent keys between them, and keys beyond both ends.
  std::vector<uint64_t> probes = {0, 1, ~0ull, ~0ull - 1};
  for (int i = 0; i < 20000; ++i) probes.push_back(rng());
  for (size_t i = 0; i < keys.size(); i += 7) probes.push_back(keys[i]);
  for (uint64_t probe : probes) {
    size_t expected = size_t(std::lower_bound(keys.begin(), keys.end(), probe) - keys.begin());
    ASSERT_EQ(book.lower_bound(probe), expected) << std::hex << probe;
  }
  auto found = book.find(keys[1234]);
  size_t count = size_t(std::count(keys.begin(), keys.end(), keys[1234]));
  EXPECT_EQ(found.size(), count);
  EXPECT_EQ(book.find(~0ull).size(), 1u);
}

TEST(PolyglotReader, SkewedKeysStillSearchCorrectly) {
  // Keys bunched at both ends defeat interpolation; the binary fallback must still find them.
  std::vector<PolyglotEntry> entries;
  for (uint64_t i = 0; i < 5000; ++i) entries.push_back({i, 1, 1, 0});
  for (uint64_t i = 0; i < 5000; ++i) entries.push_back({~0ull - 5000 + i, 1, 1, 0});
  test::TempDir tmp;
  test::write_file(tmp / "b.bin", bytes_of(entries));
  PolyglotBook book = open_or_die(tmp / "b.bin");
  for (size_t i = 0; i < entries.size(); i += 37) EXPECT_EQ(book.lower_bound(entries[i].key), i);
  EXPECT_EQ(book.lower_bound(123456789), 5000u);
}

TEST(PolyglotReader, EmptyFileIsAnEmptyBook) {
  test::TempDir tmp;
  test::write_file(tmp / "empty.bin", "");
  PolyglotBook book = open_or_die(tmp / "empty.bin");
  EXPECT_EQ(book.size(), 0u);
  EXPECT_TRUE(book.find(0x463b96181691fc9cULL).empty());
}

TEST(PolyglotReader, DamagedFilesGiveClearErrors) {
  test::TempDir tmp;
  std::string good = bytes_of({{1, 1, 1, 0}, {2, 1, 1, 0}, {3, 1, 1, 0}});
  test::write_file(tmp / "truncated.bin", good.substr(0, 40));
  auto truncated = PolyglotBook::open((tmp / "truncated.bin").string());
  ASSERT_FALSE(truncated.ok());
  EXPECT_NE(truncated.error().message.find("truncated.bin"), std::string::npos);
  EXPECT_NE(truncated.error().message.find("multiple of 16"), std::string::npos);

  test::write_file(tmp / "unsorted.bin", bytes_of({{1, 1, 1, 0}, {3, 1, 1, 0}, {2, 1, 1, 0}}));
  auto unsorted = PolyglotBook::open((tmp / "unsorted.bin").string());
  ASSERT_FALSE(unsorted.ok());
  EXPECT_NE(unsorted.error().message.find("entry 2"), std::string::npos) << unsorted.error().message;
  EXPECT_NE(unsorted.error().message.find("sorted"), std::string::npos);

  auto missing = PolyglotBook::open((tmp / "missing.bin").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("missing.bin"), std::string::npos);

  auto folder = PolyglotBook::open(tmp.path().string());
  ASSERT_FALSE(folder.ok());
}

TEST(PolyglotReader, ArbitraryBytesNeverCrash) {
  std::mt19937 rng(11);
  int accepted = 0;
  for (int round = 0; round < 2000; ++round) {
    std::vector<unsigned char> bytes(rng() % 100);
    for (auto& b : bytes) b = static_cast<unsigned char>(rng());
    // Sometimes sorted keys, so that some random books are valid and get searched.
    if (round % 2 && bytes.size() >= 32) std::fill(bytes.begin(), bytes.begin() + 8, 0);
    auto book = PolyglotBook::from_bytes(bytes, "random");
    if (!book.ok()) continue;
    ++accepted;
    for (size_t i = 0; i < book->size(); ++i) EXPECT_EQ(book->find(book->key_at(i)).empty(), false);
  }
  EXPECT_GT(accepted, 0);
}

TEST(BookMerge, SumsWithoutWrapAround) {
  test::TempDir tmp;
  // Polyglot's merge-book gives 60000 + 10000 = 4464; bookforge scales the position instead.
  test::write_file(tmp / "a.bin", bytes_of({{10, 0x31c, 60000, 0}, {10, 0x31d, 30000, 5}, {20, 1, 4, 0}}));
  test::write_file(tmp / "b.bin",
                   bytes_of({{10, 0x31c, 10000, 9}, {15, 2, 7, 0}, {20, 1, 6, 0}, {20, 2, 1, 0}}));
  PolyglotBook a = open_or_die(tmp / "a.bin");
  PolyglotBook b = open_or_die(tmp / "b.bin");

  auto merge = [&](MergeStrategy strategy) {
    auto writer = PolyglotWriter::create((tmp / "out.bin").string());
    EXPECT_TRUE(writer.ok());
    auto stats = merge_books({&a, &b}, strategy, *writer);
    EXPECT_TRUE(stats.ok());
    EXPECT_TRUE(writer->commit().ok());
    PolyglotBook out = open_or_die(tmp / "out.bin");
    std::vector<PolyglotEntry> entries;
    for (size_t i = 0; i < out.size(); ++i) entries.push_back(out.entry(i));
    return entries;
  };

  // 70000 and 30000 scaled by 65535 / 70000.
  EXPECT_EQ(merge(MergeStrategy::kSum),
            (std::vector<PolyglotEntry>{
                {10, 0x31c, 65535, 0}, {10, 0x31d, 28086, 5}, {15, 2, 7, 0}, {20, 1, 10, 0}, {20, 2, 1, 0}}));
  EXPECT_EQ(merge(MergeStrategy::kMax),
            (std::vector<PolyglotEntry>{
                {10, 0x31c, 60000, 0}, {10, 0x31d, 30000, 5}, {15, 2, 7, 0}, {20, 1, 6, 0}, {20, 2, 1, 0}}));
  EXPECT_EQ(merge(MergeStrategy::kFirst),
            (std::vector<PolyglotEntry>{
                {10, 0x31c, 60000, 0}, {10, 0x31d, 30000, 5}, {15, 2, 7, 0}, {20, 1, 4, 0}}));
}

}  // namespace
}  // namespace bookforge::book
