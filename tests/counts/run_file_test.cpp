// Spilled runs: exact round trip of every field, several runs in one file, the merge that sums
// equal (key, move) entries across sources.
#include <map>
#include <random>
#include <utility>

#include "counts/entry_merge.h"
#include "counts/run_file.h"
#include "support/test_support.h"

namespace bookforge::counts {
namespace {

TallyEntry make_entry(uint64_t key, uint16_t move, uint32_t games) {
  TallyEntry e;
  e.key = key;
  e.move = move;
  e.white_wins = games / 3;
  e.draws = games / 4;
  e.black_wins = games / 5;
  e.games = games;
  e.rated_games = games / 2;
  e.rating_sum = uint64_t(e.rated_games) * 2400;
  e.first_ply = uint16_t(games % 61);
  return e;
}

template <class Slot>
TallyEntry entry_of(const Slot& s) {
  TallyEntry e;
  fill_entry(s, e);
  return e;
}

// A compact table spilled as it is: its used slots only, read back as the same entries, after
// a varint run in the same file and through a buffer smaller than the run; the table is left
// with every slot empty.
template <class Slot>
void check_slot_run(uint8_t counter_limit) {
  test::TempDir tmp;
  auto file = SpillFile::create(tmp.path().string());
  ASSERT_TRUE(file.ok()) << file.error().message;
  RunWriter first(*file);
  first.add(make_entry(5, 5, 5));
  auto varint = first.finish();
  ASSERT_TRUE(varint.ok());
  std::vector<Slot> slots(3000);
  std::mt19937_64 rng(3);
  uint64_t key = 0;
  for (size_t i = 0; i < slots.size(); ++i) {
    if (i % 3 == 0) continue;  // empty slots in between
    key += 1 + rng() % 1000;
    slots[i].key = key;
    slots[i].move = uint16_t(1 + rng() % 4000);
    slots[i].first_ply = uint16_t(rng() % 100);
    slots[i].white_wins = uint8_t(rng() % counter_limit);
    slots[i].draws = counter_limit;
    slots[i].black_wins = 1;
  }
  std::vector<Slot> drained = slots;
  auto run = drain_slot_run(*file, drained.data(), drained.data() + drained.size());
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->entries, 2000u);
  EXPECT_EQ(run->bytes, 2000u * sizeof(Slot));
  RunReader reader(*run, 1000);
  for (const Slot& s : slots) {
    if (s.move == 0) continue;
    TallyEntry e;
    ASSERT_TRUE(reader.next(e));
    ASSERT_EQ(e, entry_of(s));
  }
  TallyEntry e;
  EXPECT_FALSE(reader.next(e));
  EXPECT_TRUE(reader.status().ok());
  RunReader again(*varint, 1000);
  ASSERT_TRUE(again.next(e));
  EXPECT_EQ(e, make_entry(5, 5, 5)) << "the slot run went after the varint run";

  for (const Slot& s : drained) ASSERT_EQ(s.move, 0) << "a drained slot is empty";
}

// A table larger than the write buffer: the run is written in several pieces.
TEST(RunFile, LargeSlotRunsAreWrittenInPieces) {
  test::TempDir tmp;
  auto file = SpillFile::create(tmp.path().string());
  ASSERT_TRUE(file.ok()) << file.error().message;
  std::vector<SmallSlot> slots(300000);
  for (size_t i = 0; i < slots.size(); ++i) {
    if (i % 5 == 0) continue;
    slots[i].key = i;
    slots[i].move = uint16_t(1 + i % 7);
    slots[i].white_wins = 1;
  }
  auto run = drain_slot_run(*file, slots.data(), slots.data() + slots.size());
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->entries, 240000u);
  RunReader reader(*run, 4096);
  TallyEntry e;
  uint64_t expected = 1;
  while (reader.next(e)) {
    ASSERT_EQ(e.key, expected);
    expected += expected % 5 == 4 ? 2 : 1;
  }
  EXPECT_EQ(expected, 300001u);
  EXPECT_TRUE(reader.status().ok());
}

TEST(RunFile, SlotRunsReadBackTheUsedSlots) {
  check_slot_run<SmallSlot>(255);
  check_slot_run<CompactSlot>(255);
}

TEST(RunFile, RoundTripsExtremeValues) {
  test::TempDir tmp;
  auto file = SpillFile::create(tmp.path().string());
  ASSERT_TRUE(file.ok()) << file.error().message;
  std::vector<TallyEntry> entries;
  TallyEntry big;
  big.key = 0;
  big.move = 0xffff;
  big.white_wins = 0xffffffffu / 4;
  big.draws = 0xffffffffu / 4;
  big.black_wins = 0xffffffffu / 4;
  big.games = 0xffffffffu;
  big.rated_games = 0xfffffffeu;
  big.rating_sum = ~uint64_t(0);
  big.first_ply = 0;
  entries.push_back(big);
  entries.push_back(make_entry(1, 1, 1));
  entries.push_back(make_entry(~uint64_t(0), 7, 100000));
  RunWriter writer(*file);
  for (const TallyEntry& e : entries) writer.add(e);
  auto run = writer.finish();
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->entries, entries.size());
  RunReader reader(*run, 64 << 10);
  for (const TallyEntry& expected : entries) {
    TallyEntry e;
    ASSERT_TRUE(reader.next(e));
    EXPECT_EQ(e, expected);
  }
  TallyEntry e;
  EXPECT_FALSE(reader.next(e));
  EXPECT_TRUE(reader.status().ok());
  EXPECT_TRUE(std::filesystem::is_empty(tmp.path())) << "the run file must be unlinked";
}

TEST(RunFile, SeveralRunsShareAFileAndReadWithTinyBuffers) {
  test::TempDir tmp;
  auto file = SpillFile::create(tmp.path().string());
  ASSERT_TRUE(file.ok());
  std::vector<std::vector<TallyEntry>> runs_entries(3);
  std::vector<SpilledRun> runs;
  std::mt19937_64 rng(7);
  for (auto& entries : runs_entries) {
    uint64_t key = 0;
    for (int i = 0; i < 5000; ++i) {
      key += rng() % 1000000000000ULL;
      entries.push_back(make_entry(key, uint16_t(1 + rng() % 4000), uint32_t(1 + rng() % 300)));
    }
    RunWriter writer(*file);
    for (const TallyEntry& e : entries) writer.add(e);
    auto run = writer.finish();
    ASSERT_TRUE(run.ok());
    runs.push_back(*run);
  }
  // Read the runs interleaved, with buffers smaller than a few records.
  std::vector<RunReader> readers;
  for (const SpilledRun& r : runs) readers.emplace_back(r, 100);
  for (size_t i = 0; i < 5000; ++i)
    for (size_t r = 0; r < readers.size(); ++r) {
      TallyEntry e;
      ASSERT_TRUE(readers[r].next(e)) << r << " " << i;
      ASSERT_EQ(e, runs_entries[r][i]);
    }
}

TEST(EntryMerge, SumsEqualEntriesAcrossSources) {
  std::vector<TallyEntry> a = {make_entry(1, 1, 10), make_entry(1, 2, 5), make_entry(9, 1, 3)};
  std::vector<TallyEntry> b = {make_entry(1, 2, 7), make_entry(5, 1, 1)};
  std::vector<TallyEntry> c = {make_entry(1, 2, 1), make_entry(9, 1, 2)};
  std::vector<std::unique_ptr<EntryStream>> sources;
  for (auto* v : {&a, &b, &c}) sources.push_back(std::make_unique<SpanStream<TallyEntry>>(*v));
  MergedStream merged(std::move(sources));
  std::vector<TallyEntry> out;
  TallyEntry e;
  while (merged.next(e)) out.push_back(e);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0], a[0]);
  TallyEntry sum12 = a[1];
  sum12.add(b[0]);
  sum12.add(c[0]);
  EXPECT_EQ(out[1], sum12);
  EXPECT_EQ(out[1].games, 13u);
  EXPECT_EQ(out[1].first_ply, std::min({a[1].first_ply, b[0].first_ply, c[0].first_ply}));
  EXPECT_EQ(out[2], b[1]);
  EXPECT_EQ(out[3].games, 5u);
}

// Many sources of every size (empty, one entry, thousands), with (key, move) pairs shared by
// several of them and keys that often share their position, against a std::map; read in
// batches of odd sizes and entry by entry.
TEST(EntryMerge, MatchesAMapForAnyNumberOfSources) {
  std::mt19937_64 rng(11);
  for (size_t source_count : {1u, 2u, 3u, 5u, 8u, 13u, 64u}) {
    std::vector<std::vector<TallyEntry>> sources(source_count);
    std::map<std::pair<uint64_t, uint16_t>, TallyEntry> expected;
    for (size_t s = 0; s < source_count; ++s) {
      std::map<std::pair<uint64_t, uint16_t>, TallyEntry> mine;
      const size_t n = s % 4 == 3 ? 0 : s % 4 == 2 ? 1 : size_t(rng() % 3000);
      for (size_t i = 0; i < n; ++i) {
        // Few keys and moves, so that sources overlap and positions hold several moves.
        uint64_t key = (rng() % 900) * 0x9e3779b97f4a7c15ull;
        uint16_t move = uint16_t(1 + rng() % 6);
        mine.emplace(std::pair{key, move}, make_entry(key, move, uint32_t(1 + rng() % 50)));
      }
      for (const auto& [k, e] : mine) {
        sources[s].push_back(e);
        auto [it, fresh] = expected.emplace(k, e);
        if (!fresh) it->second.add(e);
      }
    }
    for (size_t batch : {1u, 7u, 256u, 1000u}) {
      std::vector<std::unique_ptr<EntryStream>> streams;
      for (const auto& v : sources) streams.push_back(std::make_unique<SpanStream<TallyEntry>>(v));
      MergedStream merged(std::move(streams));
      std::vector<TallyEntry> out, buffer(batch);
      if (batch == 1) {
        TallyEntry e;
        while (merged.next(e)) out.push_back(e);
      } else {
        while (size_t n = merged.next_batch(buffer.data(), batch))
          out.insert(out.end(), buffer.begin(), buffer.begin() + long(n));
      }
      ASSERT_TRUE(merged.status().ok());
      ASSERT_EQ(out.size(), expected.size()) << source_count << " sources, batch " << batch;
      size_t i = 0;
      for (const auto& [k, e] : expected)
        ASSERT_EQ(out[i++], e) << source_count << " sources, batch " << batch;
    }
  }
}

// A source that fails part way stops the merge with its error, whichever side of which pair
// it is on.
class FailingStream : public SpanStream<TallyEntry> {
 public:
  using SpanStream::SpanStream;
  size_t next_batch(TallyEntry* out, size_t max) override {
    const size_t n = SpanStream::next_batch(out, max);
    failed_ = failed_ || n < max;
    return n;
  }
  Status status() const override { return failed_ ? Status(Error{"disk on fire"}) : ok_status(); }

 private:
  bool failed_ = false;
};

TEST(EntryMerge, ASourceErrorStopsTheMerge) {
  for (size_t failing = 0; failing < 3; ++failing) {
    std::vector<std::unique_ptr<EntryStream>> streams;
    std::vector<TallyEntry> entries;
    for (uint64_t k = 1; k <= 2000; ++k) entries.push_back(make_entry(k, 1, 2));
    for (size_t s = 0; s < 3; ++s)
      if (s == failing)
        streams.push_back(std::make_unique<FailingStream>(std::span<const TallyEntry>(entries.data(), 10)));
      else
        streams.push_back(std::make_unique<SpanStream<TallyEntry>>(entries));
    MergedStream merged(std::move(streams));
    TallyEntry e;
    size_t read = 0;
    while (merged.next(e)) ++read;
    EXPECT_FALSE(merged.status().ok()) << failing;
    EXPECT_EQ(merged.status().error().message, "disk on fire");
    EXPECT_LT(read, 2000u);
  }
}

}  // namespace
}  // namespace bookforge::counts
