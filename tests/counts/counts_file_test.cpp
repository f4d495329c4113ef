// Counts files and sets (counts/counts_file.h, counts_set.h, game_list_file.h): exact round
// trip of header and entries, every kind of damage found and named, input parts that overlap,
// sets of different K summed as one, the games two sets share.
#include <algorithm>
#include <map>
#include <random>
#include <tuple>

#include "counts/counts_file.h"
#include "counts/counts_set.h"
#include "counts/game_list_file.h"
#include "support/test_support.h"

namespace bookforge::counts {
namespace {

namespace fs = std::filesystem;

CountsHeader sample_header(uint32_t partitions, uint32_t range) {
  CountsHeader h;
  h.options.max_ply = 40;
  h.options.filters = "min-elo 2000; tag Event=\\Open\\ \"x\"";
  h.partitions = partitions;
  h.range = range;
  h.inputs = {{"games one.pgn.zst", {1, 3}, 12345, 0xfedcba9876543210ull},
              {"line\nbreak.pgn", {0, 1}, 7, 0x1}};
  h.games_read = 10;
  h.games_kept = 8;
  h.games_bad = 1;
  h.games_skipped = 2;
  h.duplicates_dropped = 3;
  return h;
}

// Sorted entries of every range of `partitions`, with values that need every varint width.
std::vector<TallyEntry> random_entries(uint64_t seed, size_t n) {
  std::mt19937_64 rng(seed);
  std::map<std::tuple<uint64_t, uint16_t, uint32_t>, TallyEntry> sorted;
  for (size_t i = 0; i < n; ++i) {
    TallyEntry e;
    e.key = rng() % 4 == 0 ? 0x8000000000000000ull + rng() % 64 : rng();  // some keys repeat
    e.move = uint16_t(1 + rng() % 5000);
    e.slice = uint32_t(rng() % 3 == 0 ? rng() : rng() % 4);
    e.white_wins = uint32_t(rng() % 1000);
    e.draws = uint32_t(rng() % 3);
    e.black_wins = uint32_t(rng() >> 40);
    e.games = e.white_wins + e.draws + e.black_wins + uint32_t(rng() % 2);
    e.rating_sum = rng() >> 20;
    e.opponent_rating_sum = rng() >> 30;
    e.rated_games = uint32_t(rng() % 70000);
    e.opponents_rated = 1;
    e.first_ply = uint16_t(rng() % 200);
    sorted[{e.key, e.move, e.slice}] = e;
  }
  std::vector<TallyEntry> out;
  for (const auto& [k, e] : sorted) out.push_back(e);
  return out;
}

std::vector<TallyEntry> read_all(EntryStream& stream) {
  std::vector<TallyEntry> out;
  TallyEntry e;
  while (stream.next(e)) out.push_back(e);
  EXPECT_TRUE(stream.status().ok()) << stream.status().error().message;
  return out;
}

// Writes `entries` as a set of `partitions` ranges in `dir`, with `games` as its game list.
void write_test_set(const fs::path& dir, CountsHeader header, const std::vector<TallyEntry>& entries,
                    std::vector<uint64_t> games) {
  ASSERT_TRUE(prepare_set_folder(dir.string()).ok());
  struct Vector final : EntryStream {
    explicit Vector(const std::vector<TallyEntry>& e) : entries(e) {}
    bool next(TallyEntry& e) override { return at < entries.size() ? (e = entries[at++], true) : false; }
    Status status() const override { return ok_status(); }
    const std::vector<TallyEntry>& entries;
    size_t at = 0;
  };
  std::vector<std::unique_ptr<EntryStream>> one;
  one.push_back(std::make_unique<Vector>(entries));
  Result<uint64_t> bytes = write_set(dir.string(), header, std::move(one), GameList{0, std::move(games)}, 1);
  ASSERT_TRUE(bytes.ok()) << bytes.error().message;
}

TEST(CountsFile, HeaderTextRoundTripsEveryField) {
  const CountsHeader h = sample_header(64, 17);
  Result<CountsHeader> back = CountsHeader::parse(h.text(), "f");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->text(), h.text());
  EXPECT_EQ(back->options, h.options);
  EXPECT_EQ(back->inputs[1].name, "line\nbreak.pgn");
  EXPECT_EQ(back->inputs[0].part, (InputPart{1, 3}));
  EXPECT_EQ(back->inputs[0].hash, 0xfedcba9876543210ull);
  EXPECT_EQ(back->duplicates_dropped, 3u);
  // The set's id ignores the range only.
  EXPECT_EQ(sample_header(64, 3).set_id(), h.set_id());
  CountsHeader other = h;
  other.games_kept = 9;
  EXPECT_NE(other.set_id(), h.set_id());
}

TEST(CountsFile, AHeaderMissingAnOptionOrWithABadRangeIsRefused) {
  std::string text = sample_header(4, 1).text();
  std::string no_ratings = text;
  no_ratings.erase(no_ratings.find("ratings on\n"), 11);
  Result<CountsHeader> r = CountsHeader::parse(no_ratings, "f.counts");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "f.counts: damaged counts header: no ratings");
  std::string bad_range = text;
  bad_range.replace(bad_range.find("range 1"), 7, "range 4");
  EXPECT_FALSE(CountsHeader::parse(bad_range, "f").ok());
  std::string not_power = text;
  not_power.replace(not_power.find("partitions 4"), 12, "partitions 3");
  EXPECT_FALSE(CountsHeader::parse(not_power, "f").ok());
}

TEST(CountsFile, OptionsThatDifferAreNamedWithBothValues) {
  CountsOptions a, b;
  EXPECT_EQ(first_difference(a, "A", b, "B"), std::nullopt);
  b.count_repeats = true;
  EXPECT_EQ(first_difference(a, "A", b, "B"), "count_repeats: off in A, on in B");
  b = a;
  b.fields = "white_wins,draws";
  EXPECT_EQ(first_difference(a, "A", b, "B"),
            "fields: " + counted_field_names() + " in A, white_wins,draws in B");
}

TEST(CountsFile, InputPartsParseAndOverlapAsByteRanges) {
  EXPECT_EQ(*parse_input_part("2/5"), (InputPart{2, 5}));
  EXPECT_FALSE(parse_input_part("5/5").ok());
  EXPECT_FALSE(parse_input_part("1").ok());
  EXPECT_FALSE(parse_input_part("-1/4").ok());
  EXPECT_FALSE(parse_input_part("0/0").ok());
  EXPECT_TRUE((InputPart{1, 4}).overlaps({2, 8}));
  EXPECT_TRUE((InputPart{0, 1}).overlaps({3, 4}));
  EXPECT_FALSE((InputPart{1, 4}).overlaps({2, 4}));
  EXPECT_FALSE((InputPart{0, 2}).overlaps({2, 4}));
  EXPECT_TRUE((InputPart{1, 3}).overlaps({1, 2}));
}

TEST(CountsFile, EntriesRoundTripExactlyThroughAFile) {
  test::TempDir tmp;
  std::vector<TallyEntry> entries = random_entries(1, 20000);
  const std::string path = (tmp / "one.counts").string();
  Result<CountsFileWriter> writer = CountsFileWriter::create(path, sample_header(1, 0));
  ASSERT_TRUE(writer.ok()) << writer.error().message;
  for (const TallyEntry& e : entries) writer->add(e);
  Result<uint64_t> bytes = writer->commit();
  ASSERT_TRUE(bytes.ok()) << bytes.error().message;
  EXPECT_EQ(*bytes, fs::file_size(path));
  Result<std::unique_ptr<CountsFileReader>> reader = CountsFileReader::open(path);
  ASSERT_TRUE(reader.ok()) << reader.error().message;
  EXPECT_EQ((*reader)->header().text(), sample_header(1, 0).text());
  EXPECT_EQ(read_all(**reader), entries);
  // In batches, as the merges read: records decoded in runs, across every refill of the buffer
  // (the file is more than twice its size).
  ASSERT_GT(fs::file_size(path), size_t(2) << 18);
  Result<std::unique_ptr<CountsFileReader>> again = CountsFileReader::open(path);
  ASSERT_TRUE(again.ok()) << again.error().message;
  std::vector<TallyEntry> batches(entries.size() + 1);
  size_t got = 0;
  for (size_t n;
       (n = (*again)->next_batch(batches.data() + got, std::min<size_t>(777, batches.size() - got))) > 0;)
    got += n;
  EXPECT_TRUE((*again)->status().ok()) << (*again)->status().error().message;
  batches.resize(got);
  EXPECT_EQ(batches, entries);
}

// A file of one range, changed by `damage`: refused at open or while read, naming the file.
void expect_damage_found(const std::function<void(std::string&)>& damage, const std::string& why) {
  test::TempDir tmp;
  const std::string path = (tmp / "r.counts").string();
  Result<CountsFileWriter> writer = CountsFileWriter::create(path, sample_header(1, 0));
  ASSERT_TRUE(writer.ok());
  for (const TallyEntry& e : random_entries(2, 3000)) writer->add(e);
  ASSERT_TRUE(writer->commit().ok());
  std::string bytes = test::read_file(path);
  damage(bytes);
  test::write_file(path, bytes);
  Result<std::unique_ptr<CountsFileReader>> reader = CountsFileReader::open(path);
  std::string error;
  if (!reader.ok()) {
    error = reader.error().message;
  } else {
    TallyEntry e;
    while ((*reader)->next(e)) {
    }
    ASSERT_FALSE((*reader)->status().ok()) << why;
    error = (*reader)->status().error().message;
  }
  EXPECT_EQ(error.rfind(path + ": ", 0), 0u) << error;
  EXPECT_NE(error.find(why), std::string::npos) << error;
}

TEST(CountsFile, EveryKindOfDamageIsFoundAndNamesTheFile) {
  expect_damage_found([](std::string& b) { b[1] = 'x'; }, "no counts magic");
  expect_damage_found([](std::string& b) { b[8] = 9; }, "counts format version 9");
  expect_damage_found([](std::string& b) { b.resize(b.size() - 1); }, "cut short");
  expect_damage_found([](std::string& b) { b.resize(20); }, "too short");
  expect_damage_found([](std::string& b) { b[b.size() / 2] ^= 0x10; }, "damaged");
  expect_damage_found([](std::string& b) { b[b.size() - 3] ^= 0x10; }, "checksum");
  // A header of another build's fields.
  expect_damage_found(
      [](std::string& b) {
        const size_t at = b.find("white_wins");
        b[at] = 'W';
      },
      "counted with the fields White_wins");
  // One entry fewer than the trailer says (the count changed, checksum and all).
  expect_damage_found([](std::string& b) { b[b.size() - 24] ^= 1; }, "damaged");
}

// Three sets of K `ks` holding overlapping keys, summed in `groups` streams (at most the least K):
// the plain sum of all their entries, each stream in its key range.
void expect_sets_sum(const std::vector<uint32_t>& ks, uint32_t groups) {
  test::TempDir tmp;
  std::map<std::tuple<uint64_t, uint16_t, uint32_t>, TallyEntry> expected;
  std::vector<CountsSet> sets;
  for (size_t s = 0; s < ks.size(); ++s) {
    std::vector<TallyEntry> entries = random_entries(10 + s % 2, 5000);  // sets 0 and 2 alike
    for (const TallyEntry& e : entries) {
      auto [it, fresh] = expected.insert({{e.key, e.move, e.slice}, e});
      if (!fresh) it->second.add(e);
    }
    CountsHeader h = sample_header(ks[s], 0);
    h.inputs = {{"f" + std::to_string(s), {0, 1}, 1, uint64_t(s)}};
    const fs::path dir = tmp / ("s" + std::to_string(s));
    write_test_set(dir, h, entries, {uint64_t(100 + s)});
    Result<CountsSet> set = open_counts_set(dir.string());
    ASSERT_TRUE(set.ok()) << set.error().message;
    sets.push_back(std::move(*set));
  }
  ASSERT_TRUE(check_sets_combine(sets).ok());
  EXPECT_EQ(finest_common_partitions(sets), *std::min_element(ks.begin(), ks.end()));
  std::vector<TallyEntry> summed;
  uint32_t group = 0;
  for (auto& stream : summed_groups(sets, groups)) {
    for (const TallyEntry& e : read_all(*stream)) {
      EXPECT_EQ(key_range(e.key, groups), group);
      summed.push_back(e);
    }
    ++group;
  }
  std::vector<TallyEntry> want;
  for (const auto& [k, e] : expected) want.push_back(e);
  EXPECT_EQ(summed.size(), want.size());
  EXPECT_TRUE(summed == want);
}

TEST(CountsSet, SetsOfDifferentKSumAsOne) {
  expect_sets_sum({1, 8, 64}, 1);
  expect_sets_sum({4, 64, 8}, 4);
  expect_sets_sum({16, 16, 16}, 16);
}

TEST(CountsSet, SharedGamesAreCountedAndListedForEveryLaterSet) {
  test::TempDir tmp;
  const std::vector<std::vector<uint64_t>> games = {{1, 2, 3}, {3, 4}, {2, 3, 5}};
  std::vector<CountsSet> sets;
  for (size_t s = 0; s < games.size(); ++s) {
    CountsHeader h = sample_header(2, 0);
    h.inputs = {{"f" + std::to_string(s), {0, 1}, 1, s}};
    const fs::path dir = tmp / ("s" + std::to_string(s));
    write_test_set(dir, h, {}, games[s]);
    Result<CountsSet> set = open_counts_set(dir.string());
    ASSERT_TRUE(set.ok()) << set.error().message;
    sets.push_back(std::move(*set));
  }
  Result<SharedGames> shared = shared_games(sets);
  ASSERT_TRUE(shared.ok()) << shared.error().message;
  EXPECT_EQ(shared->games, 2u);  // 2 and 3
  EXPECT_TRUE(shared->skip[0].fingerprints.empty());
  EXPECT_EQ(shared->skip[1].fingerprints, std::vector<uint64_t>{3});
  EXPECT_EQ(shared->skip[2].fingerprints, (std::vector<uint64_t>{2, 3}));
  EXPECT_EQ(shared->all.fingerprints, (std::vector<uint64_t>{1, 2, 3, 4, 5}));
  EXPECT_NE(shared->which.find(sets[0].dir + " and " + sets[2].dir + " share 2"), std::string::npos)
      << shared->which;
}

TEST(CountsSet, AFolderOfTwoSetsOrWithAForeignGameListIsRefused) {
  test::TempDir tmp;
  write_test_set(tmp / "a", sample_header(2, 0), {}, {1});
  CountsHeader other = sample_header(2, 0);
  other.games_kept = 99;
  write_test_set(tmp / "b", other, {}, {1});
  fs::copy_file(tmp / "b" / "range-0001-of-0002.counts", tmp / "a" / "range-0001-of-0002.counts",
                fs::copy_options::overwrite_existing);
  Result<CountsSet> mixed = open_counts_set((tmp / "a").string());
  ASSERT_FALSE(mixed.ok());
  EXPECT_NE(mixed.error().message.find("range-0001-of-0002.counts: belongs to another set"),
            std::string::npos);
  fs::copy_file(tmp / "b" / "games.fingerprints", tmp / "a" / "games.fingerprints",
                fs::copy_options::overwrite_existing);
  fs::copy_file(tmp / "b" / "range-0000-of-0002.counts", tmp / "a" / "range-0000-of-0002.counts",
                fs::copy_options::overwrite_existing);
  EXPECT_TRUE(open_counts_set((tmp / "a").string()).ok());
  write_test_set(tmp / "c", sample_header(2, 0), {}, {1});
  fs::copy_file(tmp / "b" / "games.fingerprints", tmp / "c" / "games.fingerprints",
                fs::copy_options::overwrite_existing);
  Result<CountsSet> foreign = open_counts_set((tmp / "c").string());
  ASSERT_FALSE(foreign.ok());
  EXPECT_NE(foreign.error().message.find("games.fingerprints belongs to another set"), std::string::npos);
}

TEST(GameListFile, RoundTripsAndFindsDamage) {
  test::TempDir tmp;
  const std::string path = (tmp / "g").string();
  ASSERT_TRUE(write_game_list(path, GameList{42, {1, 5, 0xffffffffffffffffull}}).ok());
  Result<GameList> back = read_game_list(path);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->set_id, 42u);
  EXPECT_EQ(back->fingerprints, (std::vector<uint64_t>{1, 5, 0xffffffffffffffffull}));
  std::string bytes = test::read_file(path);
  bytes[40] ^= 1;
  test::write_file(path, bytes);
  Result<GameList> damaged = read_game_list(path);
  ASSERT_FALSE(damaged.ok());
  EXPECT_EQ(damaged.error().message, path + ": not a complete game list: the checksum does not match");
}

}  // namespace
}  // namespace bookforge::counts
