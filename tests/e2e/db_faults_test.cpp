// A store under real faults: deleted while still open elsewhere and made again, damaged on disk,
// a disk that fills during a first add. Never a silent wrong answer, never old data brought back,
// never files left behind.
#include <algorithm>
#include <filesystem>
#include <random>

#include "e2e/db_helpers.h"

namespace bookforge::test {
namespace {

namespace fs = std::filesystem;

const std::string kTwic = "twic0920-2000.pgn";
const std::string kLichess = "lichess-2016-05-1000.pgn";

// A connection held open the way `bookforge serve` holds one: it has read the store, so SQLite
// keeps the store's -wal and -shm open for as long as it lives.
class OpenReader {
 public:
  explicit OpenReader(const fs::path& path) {
    EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    EXPECT_EQ(sqlite3_exec(db_, "SELECT count(*) FROM sources", nullptr, nullptr, nullptr), SQLITE_OK);
  }
  ~OpenReader() { sqlite3_close(db_); }

 private:
  sqlite3* db_ = nullptr;
};

TEST(DbFaults, AStoreMadeAgainUnderADeletedOnesNameHoldsNothingOfIt) {
  TempDir dir;
  const fs::path db = dir / "t.sqlite";
  ASSERT_EQ(db_add_files(db, {sample(kTwic).string()}).exit_code, 0);
  OpenReader server(db);
  // A second add commits into the WAL, which the open reader keeps from being removed.
  ASSERT_EQ(db_add_files(db, {sample(kLichess).string()}).exit_code, 0);
  ASSERT_TRUE(fs::exists(dir / "t.sqlite-wal"));
  fs::remove(db);

  write_file(dir / "one.pgn", "[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n");
  CommandResult again = db_add_files(db, {(dir / "one.pgn").string()});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.err.find("t.sqlite-wal, left by a deleted store"), std::string::npos) << again.err;
  EXPECT_EQ(sql_rows(db, "SELECT count(*), sum(games) FROM sources"), "1|1\n");
  EXPECT_EQ(sql_rows(db, "SELECT count(*) FROM games"), "1\n");
  EXPECT_EQ(sql_rows(db, "SELECT count(DISTINCT key) FROM tree"), "3\n");
  CommandResult stats = run_bookforge({"db", "stats", "--db", db.string()});
  EXPECT_EQ(stats.exit_code, 0) << stats.err;
}

// The explorer's answers on a list of positions, as `db explore --json` prints them.
std::vector<CommandResult> explore_all(const fs::path& db) {
  const std::vector<std::string> lines = {"",
                                          "e4",
                                          "d4",
                                          "e4 c5",
                                          "e4 e5",
                                          "d4 Nf6",
                                          "c4",
                                          "Nf3",
                                          "e4 e6",
                                          "e4 c6",
                                          "d4 d5",
                                          "e4 c5 Nf3",
                                          "d4 Nf6 c4",
                                          "e4 e5 Nf3",
                                          "e4 c5 Nf3 d6",
                                          "d4 Nf6 c4 e6",
                                          "e4 e5 Nf3 Nc6 Bb5",
                                          "c4 e5",
                                          "g3",
                                          "b3"};
  std::vector<CommandResult> out;
  for (const std::string& line : lines) {
    std::vector<std::string> args{"db", "explore", "--db", db.string(), "--json"};
    if (!line.empty()) args.insert(args.end(), {"--moves", line});
    out.push_back(run_bookforge(args));
  }
  return out;
}

// Every answer on the damaged store is the undamaged store's, or an error naming the file and
// the damage; and the damage is found at least once (else the test proves nothing).
void expect_no_silent_wrong_answer(const fs::path& db, const std::string& damaged_bytes,
                                   const std::vector<CommandResult>& before) {
  write_file(db, damaged_bytes);
  const std::vector<CommandResult> after = explore_all(db);
  int refused = 0;
  for (size_t i = 0; i < after.size(); ++i) {
    if (after[i].exit_code == 0) {
      EXPECT_EQ(after[i].out, before[i].out) << "position " << i;
      continue;
    }
    ++refused;
    EXPECT_EQ(after[i].exit_code, 1) << after[i].err;
    EXPECT_NE(after[i].err.find(db.string() + ": damaged store"), std::string::npos) << after[i].err;
  }
  CommandResult stats = run_bookforge({"db", "stats", "--db", db.string()});
  EXPECT_EQ(stats.exit_code, 1) << stats.out;
  EXPECT_NE(stats.err.find("damaged store"), std::string::npos) << stats.err;
  CommandResult book =
      run_bookforge({"build", "--from-db", db.string(), "-o", (db.parent_path() / "b.bin").string()});
  EXPECT_EQ(book.exit_code, 1) << book.out;
  EXPECT_FALSE(fs::exists(db.parent_path() / "b.bin"));
  EXPECT_GT(refused + (stats.exit_code != 0), 0);
}

TEST(DbFaults, ADamagedStoreNeverAnswersFromItsDamagedPages) {
  TempDir dir;
  const fs::path db = dir / "t.sqlite";
  ASSERT_EQ(db_add_files(db, {sample(kTwic).string(), sample(kLichess).string()}).exit_code, 0);
  const std::string bytes = read_file(db);
  const std::vector<CommandResult> before = explore_all(db);
  for (const CommandResult& r : before) ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_GT(bytes.size(), 8u << 16);

  // 64 KiB of zeros in the middle of the file.
  std::string zeroed = bytes;
  std::fill(zeroed.begin() + long(zeroed.size() / 2), zeroed.begin() + long(zeroed.size() / 2 + 65536), '\0');
  expect_no_silent_wrong_answer(db, zeroed, before);

  // 200 bytes changed at random places.
  std::mt19937_64 random(20261126);
  std::string flipped = bytes;
  for (int i = 0; i < 200; ++i) flipped[random() % flipped.size()] ^= char(1 + random() % 255);
  expect_no_silent_wrong_answer(db, flipped, before);
}

// A small tmpfs is a disk that fills: it needs root (as CI runs) and is skipped elsewhere.
class SmallDisk {
 public:
  SmallDisk(const fs::path& where, uint64_t bytes) : where_(where) {
    fs::create_directories(where);
    mounted_ =
        run_program({"mount", "-t", "tmpfs", "-o", "size=" + std::to_string(bytes), "tmpfs", where.string()})
            .exit_code == 0;
  }
  ~SmallDisk() {
    if (mounted_) run_program({"umount", where_.string()});
  }
  bool mounted() const { return mounted_; }

 private:
  fs::path where_;
  bool mounted_ = false;
};

TEST(DbFaults, AFullDiskDuringAFirstAddLeavesNoFileBehind) {
  TempDir dir;
  const std::vector<std::string> inputs{sample(kTwic).string(), sample(kLichess).string()};
  ASSERT_EQ(db_add_files(dir / "whole.sqlite", inputs).exit_code, 0);
  const uint64_t whole = fs::file_size(dir / "whole.sqlite");
  // Disks that fill at every stage of the add: the tree, the games' side store, the copy of the
  // games into the new store, its WAL.
  int failed = 0;
  for (uint64_t size = whole * 3 / 4; size < whole * 3 / 2; size += whole / 16) {
    SmallDisk disk(dir / "disk", size);
    if (!disk.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here (not root?)";
    CommandResult r = db_add_files(dir / "disk" / "t.sqlite", inputs);
    if (r.exit_code == 0) continue;
    ++failed;
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("t.sqlite"), std::string::npos) << r.err;
    std::vector<std::string> left;
    for (const auto& e : fs::directory_iterator(dir / "disk")) left.push_back(e.path().filename().string());
    EXPECT_TRUE(left.empty()) << "disk of " << size << " bytes: " << left.front();
  }
  EXPECT_GT(failed, 0);
}

TEST(DbFaults, TheSameStandardInputTwiceIsRefused) {
  TempDir dir;
  const fs::path db = dir / "t.sqlite";
  const std::string games = read_file(sample(kLichess));
  const std::vector<std::string> args{"db", "add", "-", "--db", db.string(), "--progress", "never"};
  ASSERT_EQ(run_bookforge(args, games).exit_code, 0);
  CommandResult again = run_bookforge(args, games);
  EXPECT_EQ(again.exit_code, 1) << again.out;
  EXPECT_NE(again.err.find("-: already in the store"), std::string::npos) << again.err;
  // The file with the same content too, and into a new store the same content given twice.
  CommandResult file = db_add_files(db, {sample(kLichess).string()});
  EXPECT_EQ(file.exit_code, 1);
  EXPECT_NE(file.err.find("already in the store"), std::string::npos) << file.err;
  EXPECT_EQ(sql_rows(db, "SELECT name, hash IS NULL, games FROM sources"), "-|0|1000\n");
}

TEST(DbFaults, ADoubledDbIsAUsageError) {
  TempDir dir;
  CommandResult r = run_bookforge(
      {"db", "stats", "--db", (dir / "a.sqlite").string(), "--db", (dir / "b.sqlite").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--db"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("once"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace bookforge::test
