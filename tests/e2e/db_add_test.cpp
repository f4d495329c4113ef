// `bookforge db add`: incremental adds equal one add, duplicates and mismatched settings are
// refused, failures leave the store as it was.
#include <algorithm>
#include <filesystem>

#include "e2e/db_helpers.h"

namespace bookforge::test {
namespace {

namespace fs = std::filesystem;

const std::string kTwic = "twic0920-2000.pgn";
const std::string kLichess = "lichess-2016-05-1000.pgn";

CommandResult db_add(const fs::path& db, std::vector<std::string> args) {
  std::vector<std::string> all{"db", "add", "--db", db.string(), "--progress", "never"};
  all.insert(all.end(), args.begin(), args.end());
  return run_bookforge(all);
}

std::string sources_of(const fs::path& db) {
  return sql_rows(db, "SELECT name, hash IS NULL, games FROM sources ORDER BY id");
}

std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(DbAdd, AddingAThenBEqualsAddingBothAtOnce) {
  TempDir dir;
  const fs::path one_by_one = dir / "one.sqlite", together = dir / "together.sqlite",
                 spilled = dir / "spill.sqlite";
  ASSERT_EQ(db_add(one_by_one, {sample(kTwic)}).exit_code, 0);
  const std::string after_a = dump_tree(one_by_one);
  CommandResult b = db_add(one_by_one, {sample(kLichess)});
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_NE(b.out.find("updated"), std::string::npos) << b.out;
  CommandResult ab = db_add(together, {sample(kTwic), sample(kLichess), "--threads", "2"});
  ASSERT_EQ(ab.exit_code, 0) << ab.err;
  EXPECT_NE(ab.out.find("created"), std::string::npos) << ab.out;
  // One thread and a tiny memory budget: the tally spills many runs, the counts stay the same.
  CommandResult small =
      db_add(spilled, {sample(kTwic), sample(kLichess), "--threads", "1", "--memory", "256K"});
  ASSERT_EQ(small.exit_code, 0) << small.err;

  const std::string full = dump_tree(together);
  EXPECT_GT(std::count(full.begin(), full.end(), '\n'), 100000);
  EXPECT_NE(full, after_a);
  EXPECT_EQ(dump_tree(one_by_one), full);
  EXPECT_EQ(dump_tree(spilled), full);
  EXPECT_EQ(sources_of(one_by_one), sources_of(together));
  EXPECT_EQ(sql_rows(together, "SELECT sum(games) FROM sources"), "3000\n");
  // The store is left in WAL mode with no side files once every connection is closed.
  EXPECT_EQ(sql_rows(together, "PRAGMA journal_mode"), "wal\n");
  EXPECT_EQ(files_in(dir.path()), (std::vector<fs::path>{"one.sqlite", "spill.sqlite", "together.sqlite"}));
}

TEST(DbAdd, TheSameContentIsRefusedUnlessForced) {
  TempDir dir;
  const fs::path db = dir / "t.sqlite";
  ASSERT_EQ(db_add(db, {sample(kTwic)}).exit_code, 0);
  const std::string before = dump_tree(db);
  const std::string counts_before =
      sql_rows(db, std::string("SELECT ") + kTreeCounts + " FROM tree ORDER BY key, move");
  const std::string sources_before = sources_of(db);

  CommandResult again = db_add(db, {sample(kTwic)});
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_NE(again.err.find("already in the store"), std::string::npos) << again.err;
  EXPECT_NE(again.err.find("--force"), std::string::npos) << again.err;
  // The same bytes under another name are the same source.
  fs::copy_file(sample(kTwic), dir / "renamed.pgn");
  CommandResult renamed = db_add(db, {dir / "renamed.pgn"});
  EXPECT_EQ(renamed.exit_code, 1);
  EXPECT_NE(renamed.err.find("renamed.pgn: already in the store"), std::string::npos) << renamed.err;
  // Refused as a whole: the new file given with the old one is not added either.
  CommandResult mixed = db_add(db, {sample(kLichess), sample(kTwic)});
  EXPECT_EQ(mixed.exit_code, 1);
  EXPECT_EQ(dump_tree(db), before);
  EXPECT_EQ(sources_of(db), sources_before);

  // Forced, its games are still the store's: the add counts none of them again.
  CommandResult copies = db_add(db, {sample(kTwic), "--force"});
  ASSERT_EQ(copies.exit_code, 0) << copies.err;
  EXPECT_NE(copies.out.find("duplicates 2000 dropped"), std::string::npos) << copies.out;
  EXPECT_EQ(dump_tree(db), before);
  EXPECT_EQ(sql_rows(db, "SELECT games FROM sources ORDER BY id"), "2000\n0\n");

  CommandResult forced = db_add(db, {sample(kTwic), "--force", "--keep-duplicates"});
  ASSERT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_NE(forced.err.find("forced"), std::string::npos) << forced.err;
  // With --keep-duplicates every count doubled, nothing else changed.
  EXPECT_EQ(
      sql_rows(
          db,
          "SELECT key, move, white / 2, draws / 2, black / 2, games / 2, rating_sum / 2, "
          "opponent_rating_sum / 2, rated / 2, opponents_rated / 2, first_ply FROM tree ORDER BY key, move"),
      counts_before);
  EXPECT_EQ(sql_rows(db,
                     "SELECT count(*) FROM tree WHERE (white | draws | black | games | rating_sum | "
                     "opponent_rating_sum | rated | opponents_rated) & 1"),
            "0\n");
  EXPECT_EQ(sql_rows(db, "SELECT count(*) FROM sources"), "3\n");
}

TEST(DbAdd, TheSameContentTwiceInOneCommandIsRefused) {
  TempDir dir;
  fs::copy_file(sample(kLichess), dir / "copy.pgn");
  CommandResult r = db_add(dir / "t.sqlite", {sample(kLichess), dir / "copy.pgn"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("given twice"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "t.sqlite"));
}

TEST(DbAdd, OtherCountingSettingsAreRefusedUnlessForced) {
  TempDir dir;
  const fs::path db = dir / "t.sqlite";
  ASSERT_EQ(db_add(db, {sample(kTwic), "--max-ply", "20"}).exit_code, 0);
  const std::string before = dump_tree(db);
  CommandResult ply = db_add(db, {sample(kLichess), "--max-ply", "30"});
  EXPECT_EQ(ply.exit_code, 1);
  EXPECT_NE(ply.err.find("built with max-ply 20"), std::string::npos) << ply.err;
  CommandResult repeats = db_add(db, {sample(kLichess), "--max-ply", "20", "--count-repeats"});
  EXPECT_EQ(repeats.exit_code, 1);
  EXPECT_NE(repeats.err.find("repeats counted"), std::string::npos) << repeats.err;
  CommandResult filtered = db_add(db, {sample(kLichess), "--max-ply", "20", "--min-elo", "1500"});
  EXPECT_EQ(filtered.exit_code, 1);
  EXPECT_NE(filtered.err.find("filters: none; this add uses"), std::string::npos) << filtered.err;
  EXPECT_NE(filtered.err.find("min-elo"), std::string::npos) << filtered.err;
  EXPECT_EQ(dump_tree(db), before);

  CommandResult forced = db_add(db, {sample(kLichess), "--max-ply", "30", "--force"});
  ASSERT_EQ(forced.exit_code, 0) << forced.err;
  // The store keeps the settings of its first add; the source records what it used.
  EXPECT_EQ(sql_rows(db, "SELECT value FROM meta WHERE name = 'max_ply'"), "20\n");
  EXPECT_EQ(sql_rows(db, "SELECT max_ply FROM sources ORDER BY id"), "20\n30\n");
  EXPECT_EQ(sql_rows(db, "SELECT max(first_ply) FROM tree"), "29\n");
}

TEST(DbAdd, AFailedReadLeavesTheStoreAsItWas) {
  TempDir dir;
  const fs::path db = dir / "t.sqlite";
  ASSERT_EQ(db_add(db, {sample(kTwic)}).exit_code, 0);
  const std::string before = dump_tree(db);
  // A gzip header and then garbage: the pipeline fails after reading has begun.
  write_file(dir / "broken.pgn.gz",
             std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10) + std::string(5000, 'x'));
  CommandResult broken = db_add(db, {sample(kLichess), dir / "broken.pgn.gz"});
  EXPECT_EQ(broken.exit_code, 1);
  EXPECT_NE(broken.err.find("broken.pgn.gz"), std::string::npos) << broken.err;
  CommandResult missing = db_add(db, {dir / "missing.pgn"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("missing.pgn"), std::string::npos) << missing.err;
  EXPECT_EQ(dump_tree(db), before);
  EXPECT_EQ(sql_rows(db, "SELECT count(*) FROM sources"), "1\n");

  // A new store is not created at all, and no temporary file is left behind.
  CommandResult fresh = db_add(dir / "new.sqlite", {dir / "broken.pgn.gz"});
  EXPECT_EQ(fresh.exit_code, 1);
  EXPECT_EQ(files_in(dir.path()), (std::vector<fs::path>{"broken.pgn.gz", "t.sqlite"}));
}

TEST(DbAdd, AStoreInAFolderThatDoesNotExistFailsBeforeReading) {
  TempDir dir;
  CommandResult r = db_add(dir / "none" / "t.sqlite", {sample(kLichess)});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no such folder"), std::string::npos) << r.err;
}

TEST(DbAdd, AFileThatIsNotAStoreIsNotTouched) {
  TempDir dir;
  write_file(dir / "notes.txt", "not a database\n");
  CommandResult r = db_add(dir / "notes.txt", {sample(kLichess)});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("notes.txt: not a bookforge store"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(dir / "notes.txt"), "not a database\n");
}

TEST(DbAdd, ACompressedCopyOfAFileIsTheSameSource) {
  TempDir dir;
  fs::copy_file(sample(kTwic), dir / "copy.pgn");
  for (std::vector<std::string> argv :
       {std::vector<std::string>{"zstd", "-q", "-k", "-f"}, std::vector<std::string>{"gzip", "-k", "-f"},
        std::vector<std::string>{"pzstd", "-q", "-f", "-p", "2"}}) {
    argv.push_back((dir / "copy.pgn").string());
    if (argv[0] == "pzstd") {
      argv.push_back("-o");
      argv.push_back((dir / "copy.pgn.pzst").string());
    }
    CommandResult packed = run_program(argv);
    ASSERT_EQ(packed.exit_code, 0) << argv[0] << ": " << packed.err;
  }
  fs::remove(dir / "copy.pgn");
  const fs::path db = dir / "t.sqlite";
  ASSERT_EQ(db_add(db, {sample(kTwic)}).exit_code, 0);
  const std::string before = dump_tree(db);
  for (const char* name : {"copy.pgn.zst", "copy.pgn.gz", "copy.pgn.pzst"}) {
    CommandResult again = db_add(db, {dir / name});
    EXPECT_EQ(again.exit_code, 1) << name;
    EXPECT_NE(again.err.find(std::string(name) + ": already in the store"), std::string::npos) << again.err;
  }
  EXPECT_EQ(dump_tree(db), before);
  EXPECT_EQ(sql_rows(db, "SELECT count(*) FROM sources"), "1\n");

  // Given twice in one command, into a new store: refused, and no store is left behind.
  CommandResult twice = db_add(dir / "new.sqlite", {sample(kTwic), dir / "copy.pgn.gz"});
  EXPECT_EQ(twice.exit_code, 1);
  EXPECT_NE(twice.err.find("copy.pgn.gz: same content as"), std::string::npos) << twice.err;
  EXPECT_FALSE(fs::exists(dir / "new.sqlite"));

  // pzstd's files (a skippable frame first) are read as zstd, and forced adds go through.
  CommandResult forced = db_add(db, {dir / "copy.pgn.pzst", "--force", "--keep-duplicates"});
  ASSERT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_NE(forced.err.find("forced: "), std::string::npos) << forced.err;
  EXPECT_EQ(sql_rows(db, "SELECT sum(games) FROM sources"), "4000\n");
}

TEST(DbAdd, ADamagedStoreIsRefusedBeforeAdding) {
  TempDir dir;
  const fs::path db = dir / "t.sqlite";
  ASSERT_EQ(db_add(db, {sample(kTwic)}).exit_code, 0);
  // Break a leaf page of the tree in the second half of the file: its page-type byte.
  std::string bytes = read_file(db);
  const size_t page = size_t(std::stoul(sql_rows(db, "PRAGMA page_size")));
  size_t broken = 0;
  for (size_t at = bytes.size() / 2 / page * page; at + page <= bytes.size(); at += page)
    if (bytes[at] == 0x0A) {  // an index b-tree leaf (WITHOUT ROWID rows live in those)
      bytes[at] = char(0xFF);
      broken = at;
      break;
    }
  ASSERT_NE(broken, 0u);
  write_file(db, bytes);
  ASSERT_EQ(run_bookforge({"db", "stats", "--db", db.string()}).exit_code, 1);

  write_file(dir / "one.pgn", "[Event \"x\"]\n\n1. e4 e5 2. Nf3 *\n");
  CommandResult r = db_add(db, {dir / "one.pgn"});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.err.find("damaged store"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(db), bytes);
}

TEST(DbAdd, BadArgumentsAreUsageErrors) {
  TempDir dir;
  EXPECT_EQ(run_bookforge({"db", "add", sample(kLichess)}).exit_code, 2);                     // no --db
  EXPECT_EQ(run_bookforge({"db", "add", "--db", (dir / "t.sqlite").string()}).exit_code, 2);  // no files
  EXPECT_EQ(db_add(dir / "t.sqlite", {sample(kLichess), "--max-ply", "-3"}).exit_code, 2);
  EXPECT_EQ(run_bookforge({"db"}).exit_code, 2);
  EXPECT_FALSE(fs::exists(dir / "t.sqlite"));
}

}  // namespace
}  // namespace bookforge::test
