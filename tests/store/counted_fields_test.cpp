// The list of counted fields (counts/counted_fields.h) drives every representation of the
// counts. Each field gets a value of its own, and the entry goes through every one of them:
// the tables' slots, a run file, the k-way merge, a store row, and back. A field that one of
// them dropped, swapped or merged the wrong way fails here, whichever field it is.
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "counts/entry_merge.h"
#include "counts/open_table.h"
#include "counts/run_file.h"
#include "store/store.h"
#include "support/test_support.h"

namespace bookforge::book {
namespace {

using pgn::Outcome;

// Every field distinct and non-zero: field i is 1000 * (i + 1) + 7 * i, and the 64-bit ones
// go past 32 bits (a codec that keeps only 32 bits of one fails).
counts::TallyEntry distinct_entry(uint64_t key, uint16_t move) {
  counts::TallyEntry e;
  e.key = key;
  e.move = move;
  uint64_t index = 0;
#define DISTINCT(name, type, merge, column, one_game, without_slot)                            \
  e.name = type(1000 * (index + 1) + 7 * index + (sizeof(type) == 8 ? uint64_t(5) << 33 : 0)); \
  ++index;
  BOOKFORGE_COUNTED_FIELDS(DISTINCT)
#undef DISTINCT
  // Still a possible entry: the games count at least the results (a store row asserts it).
  e.games = e.white_wins + e.draws + e.black_wins + 1;
  return e;
}

// What merging b into a must give, field by field as its merge kind says.
counts::TallyEntry merged(const counts::TallyEntry& a, const counts::TallyEntry& b) {
  counts::TallyEntry e = a;
#define EXPECTED(name, type, merge, column, one_game, without_slot) \
  e.name = merge == counts::Merge::kSum ? type(a.name + b.name) : std::min(a.name, b.name);
  BOOKFORGE_COUNTED_FIELDS(EXPECTED)
#undef EXPECTED
  return e;
}

TEST(CountedFields, EveryFieldSurvivesARunFile) {
  test::TempDir tmp;
  auto file = counts::SpillFile::create(tmp.path().string());
  ASSERT_TRUE(file.ok()) << file.error().message;
  counts::RunWriter writer(*file);
  const counts::TallyEntry a = distinct_entry(17, 300), b = distinct_entry(17, 301);
  writer.add(a);
  writer.add(b);
  auto run = writer.finish();
  ASSERT_TRUE(run.ok()) << run.error().message;
  counts::RunReader reader(*run, 64);
  counts::TallyEntry e;
  ASSERT_TRUE(reader.next(e));
  EXPECT_EQ(e, a);
  ASSERT_TRUE(reader.next(e));
  EXPECT_EQ(e, b);
  EXPECT_FALSE(reader.next(e));
}

TEST(CountedFields, TheMergeCombinesEveryFieldAsTheListSays) {
  const counts::TallyEntry a = distinct_entry(5, 9);
  counts::TallyEntry b = distinct_entry(5, 9);
  // Another value in every field, smaller than a's in the minimum fields: a merge that sums a
  // minimum or takes the wrong side fails.
#define HALVE(name, type, merge, column, one_game, without_slot) b.name = type(b.name / 2 + 1);
  BOOKFORGE_COUNTED_FIELDS(HALVE)
#undef HALVE
  std::vector<std::unique_ptr<counts::EntryStream>> sources;
  sources.push_back(std::make_unique<counts::SpanStream<counts::TallyEntry>>(&a, &a + 1));
  sources.push_back(std::make_unique<counts::SpanStream<counts::TallyEntry>>(&b, &b + 1));
  counts::MergedStream merge(std::move(sources));
  counts::TallyEntry e;
  ASSERT_TRUE(merge.next(e));
  EXPECT_EQ(e, merged(a, b));
  EXPECT_FALSE(merge.next(e));

  counts::TallyEntry added = a;
  added.add(b);
  EXPECT_EQ(added, merged(a, b));
}

TEST(CountedFields, EveryFieldSurvivesAStoreRowAndItsMerge) {
  test::TempDir tmp;
  const std::string path = (tmp.path() / "fields.sqlite").string();
  Result<store::Store> created = store::Store::create(path);
  ASSERT_TRUE(created.ok()) << created.error().message;
  // A key with the top bit set: stored as a negative integer.
  const counts::TallyEntry a = distinct_entry(0x8123456789abcdefULL, 77);
  for (int round = 0; round < 2; ++round) {
    ASSERT_TRUE(created->begin().ok());
    counts::SpanStream<counts::TallyEntry> stream(&a, &a + 1);
    auto result = created->merge(stream);
    ASSERT_TRUE(result.ok()) << result.error().message;
    ASSERT_TRUE(created->commit().ok());
    auto rows = created->moves_at(a.key);
    ASSERT_TRUE(rows.ok()) << rows.error().message;
    ASSERT_EQ(rows->size(), 1u);
    // The first merge inserts the row as it is, the second adds to it as the list says.
    EXPECT_EQ(rows->front(), round == 0 ? a : merged(a, a)) << "round " << round;
  }
}

// The narrow slots count what a TallyEntry counts, for the fields they keep, and read back
// what the list says for the others; a game they cannot take is refused before a slot is made.
template <class Slot>
void check_slot_counts(bool ratings) {
  auto table = counts::OpenTable<Slot>::create(64);
  ASSERT_TRUE(table.ok()) << table.error().message;
  Slot* s = table->find_or_insert(99, 12);
  ASSERT_NE(s, nullptr);
  counts::TallyEntry expected;
  expected.key = 99;
  expected.move = 12;
  const counts::GamePly games[] = {{Outcome::kWhiteWins, 8, uint16_t(ratings ? 2400 : 0)},
                                   {Outcome::kDraw, 6, uint16_t(ratings ? 2500 : 0)},
                                   {Outcome::kBlackWins, 10, 0},
                                   {Outcome::kDraw, 12, uint16_t(ratings ? 2100 : 0)}};
  for (const counts::GamePly& g : games) {
    ASSERT_TRUE(counts::slot_takes<Slot>(g));
    ASSERT_TRUE(counts::add_game(*s, g));
    expected.add(counts::TallyEntry::of_game(g));
  }
  counts::TallyEntry read;
  counts::fill_entry(*s, read);
  EXPECT_EQ(read, expected);
  EXPECT_FALSE(counts::slot_takes<Slot>(counts::GamePly{Outcome::kUnknown, 4, 0}));
  EXPECT_TRUE(table->is_ok());
}

TEST(CountedFields, TheSlotsCountWhatAnEntryCounts) {
  check_slot_counts<counts::CompactSlot>(true);
  check_slot_counts<counts::SmallSlot>(false);
  // A small slot keeps no ratings: a rated game goes to the wide table.
  EXPECT_FALSE(counts::slot_takes<counts::SmallSlot>(counts::GamePly{Outcome::kDraw, 4, 2400}));
  EXPECT_TRUE(counts::slot_takes<counts::CompactSlot>(counts::GamePly{Outcome::kDraw, 4, 2400}));
}

TEST(CountedFields, ASlotCounterThatWouldOverflowRefusesTheGame) {
  auto table = counts::OpenTable<counts::SmallSlot>::create(16);
  ASSERT_TRUE(table.ok());
  counts::SmallSlot* s = table->find_or_insert(5, 5);
  ASSERT_NE(s, nullptr);
  const counts::GamePly draw{Outcome::kDraw, 3, 0};
  for (int i = 0; i < 255; ++i) ASSERT_TRUE(counts::add_game(*s, draw));
  const counts::SmallSlot before = *s;
  EXPECT_FALSE(counts::add_game(*s, counts::GamePly{Outcome::kDraw, 1, 0}));
  EXPECT_EQ(std::memcmp(s, &before, sizeof before), 0) << "a refused game changed the slot";
  EXPECT_TRUE(counts::add_game(*s, counts::GamePly{Outcome::kWhiteWins, 3, 0}));
  EXPECT_EQ(s->white_wins, 1);
}

TEST(CountedFields, ARatingSumThatWouldOverflowRefusesTheGameBeforeAnyWrite) {
  auto table = counts::OpenTable<counts::CompactSlot>::create(16);
  ASSERT_TRUE(table.ok());
  counts::CompactSlot* s = table->find_or_insert(5, 5);
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(counts::add_game(*s, counts::GamePly{Outcome::kBlackWins, 9, 2000}));
  s->rating_sum = std::numeric_limits<uint32_t>::max() - 100;
  const counts::CompactSlot before = *s;
  // The result counter and first_ply would change too: none of them may.
  EXPECT_FALSE(counts::add_game(*s, counts::GamePly{Outcome::kBlackWins, 1, 2400}));
  EXPECT_EQ(std::memcmp(s, &before, sizeof before), 0) << "a refused game changed the slot";
  EXPECT_TRUE(counts::add_game(*s, counts::GamePly{Outcome::kBlackWins, 1, 0}));
  EXPECT_EQ(s->black_wins, 2);
  EXPECT_EQ(s->first_ply, 1);
}

}  // namespace
}  // namespace bookforge::book
