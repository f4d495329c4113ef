// The Store class on its own: schema, format checks, merging sorted entries, sources, scans.
#include "store/store.h"

#include "store/page_checksum.h"

#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "support/test_support.h"

namespace bookforge::store {
namespace {

using test::TempDir;

using counts::TallyEntry;

counts::TallyEntry entry(uint64_t key, uint16_t move, uint32_t white, uint32_t draws, uint32_t black,
                         uint16_t first_ply) {
  counts::TallyEntry e;
  e.key = key;
  e.move = move;
  e.white_wins = white;
  e.draws = draws;
  e.black_wins = black;
  e.games = white + draws + black;
  e.rating_sum = 2000 * e.games;
  e.rated_games = e.games;
  e.first_ply = first_ply;
  return e;
}

class VectorStream final : public counts::EntryStream {
 public:
  explicit VectorStream(std::vector<counts::TallyEntry> entries) : entries_(std::move(entries)) {}
  bool next(counts::TallyEntry& e) override {
    if (at_ == entries_.size()) return false;
    e = entries_[at_++];
    return true;
  }
  Status status() const override { return ok_status(); }

 private:
  std::vector<counts::TallyEntry> entries_;
  size_t at_ = 0;
};

Result<MergeCounts> merge(Store& store, const std::vector<counts::TallyEntry>& entries) {
  VectorStream stream(entries);
  return store.merge(stream);
}

std::vector<counts::TallyEntry> all_rows(Store& store) {
  std::vector<counts::TallyEntry> rows;
  std::unique_ptr<counts::EntryStream> scan = store.scan();
  counts::TallyEntry e;
  while (scan->next(e)) rows.push_back(e);
  EXPECT_TRUE(scan->status().ok()) << scan->status().error().message;
  return rows;
}

Store create_closed_and_reopen(const std::string& path, const std::vector<counts::TallyEntry>& entries) {
  Result<Store> created = Store::create(path);
  EXPECT_TRUE(created.ok()) << created.error().message;
  EXPECT_TRUE(created->begin().ok());
  EXPECT_TRUE(merge(*created, entries).ok());
  EXPECT_TRUE(created->commit().ok());
  EXPECT_TRUE(created->close().ok());
  Result<Store> opened = Store::open(path, true);
  EXPECT_TRUE(opened.ok()) << opened.error().message;
  return std::move(*opened);
}

// Through the page checksums, so that the test's own changes are not taken for damage.
void exec_sql(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(
      sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, checksum_vfs_name()),
      SQLITE_OK);
  char* message = nullptr;
  int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
  EXPECT_EQ(rc, SQLITE_OK) << (message ? message : "");
  sqlite3_free(message);
  sqlite3_close(db);
}

TEST(Store, NewStoreIsEmptyAndInWalModeAfterClose) {
  TempDir dir;
  const std::string path = dir / "t.sqlite";
  Store store = create_closed_and_reopen(path, {});
  Result<std::optional<CountingSettings>> settings = store.settings();
  ASSERT_TRUE(settings.ok());
  EXPECT_FALSE(settings->has_value());
  Result<TreeStats> stats = store.stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->positions, 0u);
  EXPECT_EQ(stats->moves, 0u);
  EXPECT_EQ(stats->games, 0u);
  EXPECT_TRUE(stats->sources.empty());
  ASSERT_TRUE(store.close().ok());
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &stmt, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)), "wal");
  sqlite3_finalize(stmt);
  sqlite3_close(db);
}

TEST(Store, CreateRefusesAnExistingFile) {
  TempDir dir;
  test::write_file(dir / "t.sqlite", "x");
  Result<Store> created = Store::create(dir / "t.sqlite");
  ASSERT_FALSE(created.ok());
  EXPECT_NE(created.error().message.find("already exists"), std::string::npos);
}

TEST(Store, MergeAddsCountsKeepsTheSmallestFirstPlyAndInsertsNewRows) {
  TempDir dir;
  const std::vector<counts::TallyEntry> first = {entry(10, 1, 1, 0, 0, 4), entry(10, 2, 0, 1, 0, 4),
                                                 entry(20, 1, 0, 0, 1, 7)};
  Store store = create_closed_and_reopen(dir / "t.sqlite", first);
  const std::vector<counts::TallyEntry> second = {entry(10, 2, 2, 1, 0, 2), entry(15, 3, 1, 1, 1, 9),
                                                  entry(20, 1, 0, 0, 1, 9)};
  ASSERT_TRUE(store.begin().ok());
  Result<MergeCounts> merged = merge(store, second);
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  EXPECT_EQ(merged->entries, 3u);
  ASSERT_TRUE(store.commit().ok());

  counts::TallyEntry sum_10_2 = entry(10, 2, 2, 2, 0, 2);
  counts::TallyEntry sum_20_1 = entry(20, 1, 0, 0, 2, 7);
  const std::vector<counts::TallyEntry> expected = {first[0], sum_10_2, second[1], sum_20_1};
  EXPECT_EQ(all_rows(store), expected);

  Result<std::vector<counts::TallyEntry>> at10 = store.moves_at(10);
  ASSERT_TRUE(at10.ok());
  EXPECT_EQ(*at10, (std::vector<counts::TallyEntry>{first[0], sum_10_2}));
  Result<std::vector<counts::TallyEntry>> at11 = store.moves_at(11);
  ASSERT_TRUE(at11.ok());
  EXPECT_TRUE(at11->empty());
}

TEST(Store, ASecondMergeIntoANewStoreAddsUp) {
  TempDir dir;
  Result<Store> created = Store::create(dir / "t.sqlite");
  ASSERT_TRUE(created.ok());
  ASSERT_TRUE(created->begin().ok());
  ASSERT_TRUE(merge(*created, {entry(1, 1, 1, 0, 0, 5)}).ok());
  ASSERT_TRUE(merge(*created, {entry(1, 1, 0, 1, 0, 3), entry(2, 1, 0, 0, 1, 4)}).ok());
  ASSERT_TRUE(created->commit().ok());
  EXPECT_EQ(all_rows(*created),
            (std::vector<counts::TallyEntry>{entry(1, 1, 1, 1, 0, 3), entry(2, 1, 0, 0, 1, 4)}));
}

TEST(Store, KeysKeepAllSixtyFourBitsAndScanInUnsignedOrder) {
  TempDir dir;
  const std::vector<counts::TallyEntry> entries = {
      entry(0, 1, 1, 0, 0, 0), entry(0x7fffffffffffffffULL, 1, 1, 0, 0, 0),
      entry(0x8000000000000000ULL, 1, 1, 0, 0, 0), entry(0x8000000000000000ULL, 9, 1, 0, 0, 0),
      entry(0xffffffffffffffffULL, 65535, 1, 0, 0, 0)};
  Store store = create_closed_and_reopen(dir / "t.sqlite", entries);
  EXPECT_EQ(all_rows(store), entries);
  Result<std::vector<counts::TallyEntry>> top = store.moves_at(0xffffffffffffffffULL);
  ASSERT_TRUE(top.ok());
  ASSERT_EQ(top->size(), 1u);
  EXPECT_EQ(top->front().move, 65535);
}

TEST(Store, RandomMergesEqualOneMergeOfTheSums) {
  // Three batches merged one after another must equal the per-(key, move) sums.
  TempDir dir;
  std::mt19937_64 rng(42);
  std::map<std::pair<uint64_t, uint16_t>, counts::TallyEntry> sums;
  Store store = create_closed_and_reopen(dir / "t.sqlite", {});
  for (int batch = 0; batch < 3; ++batch) {
    std::map<std::pair<uint64_t, uint16_t>, counts::TallyEntry> part;
    for (int i = 0; i < 2000; ++i) {
      uint64_t key = rng() % 300 * 0x0123456789abcdefULL;  // spread over the whole key range
      uint16_t move = uint16_t(rng() % 5);
      counts::TallyEntry e = entry(key, move, rng() % 3, rng() % 3, rng() % 3, uint16_t(rng() % 40));
      auto [it, fresh] = part.emplace(std::make_pair(key, move), e);
      if (!fresh) it->second = e;
    }
    std::vector<counts::TallyEntry> sorted;
    for (auto& [k, e] : part) {
      sorted.push_back(e);
      auto [it, fresh] = sums.emplace(k, e);
      if (!fresh) {
        it->second.add(e);
      }
    }
    ASSERT_TRUE(store.begin().ok());
    ASSERT_TRUE(merge(store, sorted).ok());
    ASSERT_TRUE(store.commit().ok());
  }
  std::vector<counts::TallyEntry> expected;
  for (auto& [k, e] : sums) expected.push_back(e);
  EXPECT_EQ(all_rows(store), expected);
  Result<TreeStats> stats = store.stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->moves, expected.size());
  std::set<uint64_t> keys;
  for (auto& e : expected) keys.insert(e.key);
  EXPECT_EQ(stats->positions, keys.size());
}

TEST(Store, RollbackLeavesTheStoreAsItWas) {
  TempDir dir;
  const std::vector<counts::TallyEntry> first = {entry(10, 1, 1, 0, 0, 4)};
  Store store = create_closed_and_reopen(dir / "t.sqlite", first);
  ASSERT_TRUE(store.begin().ok());
  ASSERT_TRUE(merge(store, {entry(10, 1, 5, 5, 5, 0), entry(11, 1, 1, 1, 1, 1)}).ok());
  SourceRecord x;
  x.name = "x.pgn";
  x.games = 3;
  ASSERT_TRUE(store.add_source(x).ok());
  store.rollback();
  EXPECT_EQ(all_rows(store), first);
  Result<std::vector<SourceRecord>> sources = store.sources();
  ASSERT_TRUE(sources.ok());
  EXPECT_TRUE(sources->empty());
}

TEST(Store, CountsPastThirtyTwoBitsFailTheMergeInsteadOfWrapping) {
  TempDir dir;
  counts::TallyEntry big = entry(5, 1, 3'000'000'000u, 0, 0, 0);
  Store store = create_closed_and_reopen(dir / "t.sqlite", {big});
  ASSERT_TRUE(store.begin().ok());
  Result<MergeCounts> merged = merge(store, {big});
  ASSERT_FALSE(merged.ok());
  EXPECT_NE(merged.error().message.find("a count would pass 2^32 - 1"), std::string::npos)
      << merged.error().message;
  store.rollback();
  EXPECT_EQ(all_rows(store), std::vector<counts::TallyEntry>{big});
}

class FailingStream final : public counts::EntryStream {
 public:
  bool next(counts::TallyEntry& e) override {
    if (given_ == 2) return false;
    e = entry(100 + given_++, 1, 1, 0, 0, 0);
    return true;
  }
  Status status() const override { return Error{"run file: read error at byte 42"}; }

 private:
  int given_ = 0;
};

TEST(Store, AStreamErrorOrAnUnsortedStreamFailsTheMerge) {
  TempDir dir;
  Store store = create_closed_and_reopen(dir / "t.sqlite", {});
  ASSERT_TRUE(store.begin().ok());
  FailingStream failing;
  Result<MergeCounts> merged = store.merge(failing);
  ASSERT_FALSE(merged.ok());
  EXPECT_NE(merged.error().message.find("read error at byte 42"), std::string::npos)
      << merged.error().message;
  store.rollback();
  EXPECT_TRUE(all_rows(store).empty());

  ASSERT_TRUE(store.begin().ok());
  Result<MergeCounts> unsorted = merge(store, {entry(5, 2, 1, 0, 0, 0), entry(5, 1, 1, 0, 0, 0)});
  ASSERT_FALSE(unsorted.ok());
  EXPECT_NE(unsorted.error().message.find("out of (key, move, slice) order"), std::string::npos)
      << unsorted.error().message;
  store.rollback();
  ASSERT_TRUE(store.begin().ok());
  Result<MergeCounts> repeated = merge(store, {entry(5, 1, 1, 0, 0, 0), entry(5, 1, 1, 0, 0, 0)});
  EXPECT_FALSE(repeated.ok());
  store.rollback();
  EXPECT_TRUE(all_rows(store).empty());
}

TEST(Store, SettingsAndSourcesAreRecorded) {
  TempDir dir;
  Store store = create_closed_and_reopen(dir / "t.sqlite", {});
  CountingSettings settings{.filters = "min-elo=2000", .max_ply = 40, .count_repeats = false};
  ASSERT_TRUE(store.set_settings(settings).ok());
  SourceRecord a;
  a.name = "a.pgn";
  a.size = 123;
  a.hash = "00112233aabbccdd";
  a.games = 7;
  a.settings = settings;
  SourceRecord stdin_source;
  stdin_source.name = "-";
  stdin_source.games = 2;
  stdin_source.settings = settings;
  ASSERT_TRUE(store.add_source(a).ok());
  ASSERT_TRUE(store.add_source(stdin_source).ok());
  ASSERT_TRUE(store.close().ok());

  Result<Store> reopened = Store::open(dir / "t.sqlite", false);
  ASSERT_TRUE(reopened.ok()) << reopened.error().message;
  Result<std::optional<CountingSettings>> read = reopened->settings();
  ASSERT_TRUE(read.ok());
  ASSERT_TRUE(read->has_value());
  EXPECT_EQ(**read, settings);
  Result<std::optional<SourceRecord>> found = reopened->find_source_by_hash("00112233aabbccdd");
  ASSERT_TRUE(found.ok());
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->name, "a.pgn");
  EXPECT_EQ((*found)->size, 123u);
  EXPECT_EQ((*found)->games, 7u);
  EXPECT_EQ((*found)->settings, settings);
  EXPECT_EQ((*found)->added.size(), std::string("2026-01-01T00:00:00Z").size());
  Result<std::optional<SourceRecord>> missing = reopened->find_source_by_hash("ffffffffffffffff");
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(missing->has_value());
  Result<TreeStats> stats = reopened->stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->games, 9u);
  ASSERT_EQ(stats->sources.size(), 2u);
  EXPECT_EQ(stats->sources[1].name, "-");
  EXPECT_FALSE(stats->sources[1].hash.has_value());
  EXPECT_FALSE(stats->sources[1].size.has_value());
}

TEST(Store, OpenRejectsWhatIsNotAStoreWithAClearMessage) {
  TempDir dir;
  Result<Store> missing = Store::open(dir / "none.sqlite", false);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("none.sqlite: no such store"), std::string::npos);

  test::write_file(dir / "text.sqlite", "[Event \"not a database\"]\n1. e4 e5 *\n");
  Result<Store> text = Store::open(dir / "text.sqlite", false);
  ASSERT_FALSE(text.ok());
  EXPECT_NE(text.error().message.find("text.sqlite: not a bookforge store"), std::string::npos)
      << text.error().message;

  exec_sql(dir / "other.sqlite", "CREATE TABLE people (name TEXT)");
  Result<Store> other = Store::open(dir / "other.sqlite", true);
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.error().message.find("other.sqlite: not a bookforge store"), std::string::npos)
      << other.error().message;

  exec_sql(dir / "meta.sqlite",
           "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT); "
           "INSERT INTO meta VALUES ('format', 'something-else')");
  Result<Store> meta = Store::open(dir / "meta.sqlite", false);
  ASSERT_FALSE(meta.ok());
  EXPECT_NE(meta.error().message.find("not a bookforge store"), std::string::npos) << meta.error().message;
}

TEST(Store, OpenRejectsNewerAndUnknownSchemaVersions) {
  TempDir dir;
  const std::string path = dir / "t.sqlite";
  ASSERT_TRUE(create_closed_and_reopen(path, {}).close().ok());
  exec_sql(path, "UPDATE meta SET value = '7' WHERE name = 'schema_version'");
  Result<Store> newer = Store::open(path, false);
  ASSERT_FALSE(newer.ok());
  EXPECT_NE(newer.error().message.find("schema version 7 is newer"), std::string::npos)
      << newer.error().message;

  exec_sql(path, "UPDATE meta SET value = 'x1' WHERE name = 'schema_version'");
  Result<Store> unknown = Store::open(path, false);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("unknown store schema version 'x1'"), std::string::npos)
      << unknown.error().message;

  exec_sql(path, "DELETE FROM meta WHERE name = 'schema_version'");
  Result<Store> none = Store::open(path, false);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().message.find("unknown store schema version"), std::string::npos);
}

// Every page of a new store ends in its checksum (store/page_checksum.h), and a change to
// any byte of a page fails the next read of that page, naming it.
TEST(Store, EveryPageCarriesItsChecksumAndAChangedByteIsCaught) {
  TempDir dir;
  const std::string path = dir / "t.sqlite";
  std::vector<counts::TallyEntry> entries;
  for (uint64_t k = 1; k <= 3000; ++k) entries.push_back(entry(k * 0x9e3779b97f4a7c15ULL, 1, 1, 0, 0, 2));
  std::sort(entries.begin(), entries.end(),
            [](const counts::TallyEntry& a, const counts::TallyEntry& b) { return a.key < b.key; });
  ASSERT_TRUE(create_closed_and_reopen(path, entries).close().ok());
  std::string bytes = test::read_file(path);
  ASSERT_EQ(bytes[20], char(kChecksumBytes));
  const size_t page = 65536;
  ASSERT_EQ(bytes.size() % page, 0u);
  ASSERT_GE(bytes.size() / page, 3u);
  for (size_t at = 0; at < bytes.size(); at += page) {
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + at);
    uint64_t stored = 0;
    for (int i = 7; i >= 0; --i) stored = stored << 8 | p[page - 8 + size_t(i)];
    EXPECT_EQ(stored, page_checksum(uint32_t(at / page) + 1, {p, page})) << "page " << at / page + 1;
  }
  // One byte of the last page's content: the scan reaches it and fails.
  bytes[bytes.size() - page + 100] ^= 0x20;
  test::write_file(path, bytes);
  Result<Store> opened = Store::open(path, false);
  ASSERT_TRUE(opened.ok()) << opened.error().message;
  const std::string pages = std::to_string(bytes.size() / page);
  const std::unique_ptr<counts::EntryStream> scan = opened->scan();
  for (counts::TallyEntry e; scan->next(e);) {
  }
  ASSERT_FALSE(scan->status().ok());
  EXPECT_NE(
      scan->status().error().message.find(path + ": damaged store: page " + pages + " fails its checksum"),
      std::string::npos)
      << scan->status().error().message;
}

// A store of schema version 3 has no checksums (no reserved bytes): it is read as it is.
TEST(Store, AStoreWithoutChecksumsIsReadAsItIs) {
  TempDir dir;
  const std::string path = dir / "t.sqlite";
  ASSERT_TRUE(create_closed_and_reopen(path, {entry(5, 1, 2, 3, 4, 1)}).close().ok());
  // Copied by plain SQLite into a file without reserved bytes, as bookforge wrote version 3.
  const std::string old = dir / "v3.sqlite";
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(old.c_str(), &db), SQLITE_OK);
  const std::string copy =
      "PRAGMA page_size = 65536; ATTACH '" + path +
      "' AS made; BEGIN; SELECT 1;"
      "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;"
      "INSERT INTO meta SELECT * FROM made.meta; UPDATE meta SET value = '3' WHERE name = 'schema_version';";
  ASSERT_EQ(sqlite3_exec(db, copy.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  sqlite3_stmt* tables = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(
                db, "SELECT name, sql FROM made.sqlite_schema WHERE name != 'meta' AND sql IS NOT NULL", -1,
                &tables, nullptr),
            SQLITE_OK);
  std::vector<std::pair<std::string, std::string>> schema;
  while (sqlite3_step(tables) == SQLITE_ROW)
    schema.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(tables, 0)),
                        reinterpret_cast<const char*>(sqlite3_column_text(tables, 1)));
  sqlite3_finalize(tables);
  for (const auto& [name, sql] : schema) {
    std::string fill = sql + ";";
    if (sql.rfind("CREATE TABLE", 0) == 0)
      fill += "INSERT INTO main." + name + " SELECT * FROM made." + name + ";";
    ASSERT_EQ(sqlite3_exec(db, fill.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  }
  ASSERT_EQ(sqlite3_exec(db, "COMMIT; DETACH made; PRAGMA journal_mode = WAL;", nullptr, nullptr, nullptr),
            SQLITE_OK)
      << sqlite3_errmsg(db);
  sqlite3_close(db);
  ASSERT_EQ(test::read_file(old)[20], 0);
  std::filesystem::rename(old, path);
  Result<Store> opened = Store::open(path, true);
  ASSERT_TRUE(opened.ok()) << opened.error().message;
  ASSERT_TRUE(opened->begin().ok());
  ASSERT_TRUE(merge(*opened, {entry(5, 1, 1, 0, 0, 1)}).ok());
  ASSERT_TRUE(opened->commit().ok());
  EXPECT_TRUE(opened->check_integrity().ok());
  Result<std::vector<counts::TallyEntry>> rows = opened->moves_at(5);
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ((*rows)[0].white_wins, 3u);
}

}  // namespace
}  // namespace bookforge::store
