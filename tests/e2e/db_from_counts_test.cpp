// `db add --from-counts` (store/add_from_counts.h): a store loaded from sets of counts made by
// `count --for store` must equal, for everything a user can see, the store `db add` makes from
// the same PGN with the same flags -- its rows and slices, sources, game records, top and recent
// games -- for any split of the inputs into sets (whole files, --part i/N, any K, games shared
// and skipped) and when added onto an existing store; sets it cannot load exactly are refused,
// with nothing written.
#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "e2e/db_helpers.h"
#include "store/set_games.h"
#include "support/test_support.h"

namespace bookforge::test {
namespace {

namespace fs = std::filesystem;

const std::string kTwic = sample("twic0920-2000.pgn").string();
const std::string kLichess = sample("lichess-2016-05-1000.pgn").string();

CommandResult count(const std::vector<std::string>& inputs, const fs::path& set,
                    const std::vector<std::string>& more = {}) {
  std::vector<std::string> args{"count"};
  args.insert(args.end(), inputs.begin(), inputs.end());
  args.insert(args.end(), {"-o", set.string(), "--progress", "never", "--for", "store"});
  args.insert(args.end(), more.begin(), more.end());
  return run_bookforge(args);
}

CommandResult add_counts(const fs::path& db, const std::vector<fs::path>& sets,
                         const std::vector<std::string>& more = {}) {
  std::vector<std::string> args{"db", "add", "--db", db.string(), "--from-counts"};
  for (const fs::path& set : sets) args.push_back(set.string());
  args.insert(args.end(), more.begin(), more.end());
  return run_bookforge(args);
}

// What a store holds, table by table, as plain SQL reads it (sources without their time).
std::string store_contents(const fs::path& db) {
  return "tree\n" + dump_tree(db) + "sources\n" +
         sql_rows(
             db,
             "SELECT id, name, size, hash, games, filters, max_ply, count_repeats FROM sources ORDER BY id") +
         "games\n" +
         sql_rows(
             db,
             "SELECT fingerprint, source, number, offset, white, black, white_elo, black_elo, result, date, "
             "event, site FROM games ORDER BY fingerprint") +
         "position_games\n" + sql_rows(db, "SELECT * FROM position_games ORDER BY key, fingerprint") +
         "meta\n" + sql_rows(db, "SELECT * FROM meta ORDER BY name");
}

// `db stats` without the times the sources were added.
std::string stats(const fs::path& db) {
  CommandResult r = run_bookforge({"db", "stats", "--db", db.string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return std::regex_replace(r.out, std::regex("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"), "TIME");
}

std::string explore(const fs::path& db, const std::vector<std::string>& more) {
  std::vector<std::string> args{"db", "explore", "--db", db.string(), "--json"};
  args.insert(args.end(), more.begin(), more.end());
  CommandResult r = run_bookforge(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

// The start position under slice filters: the slices a store keeps, as explore reads them.
const std::vector<std::vector<std::string>> kStartQueries = {
    {}, {"--speeds", "blitz"}, {"--ratings", "2000,2200"}, {"--since", "2016-05"}, {"--moves", "e4 c5"}};

// The two stores are equal: every table, db stats, and explore at the start position under
// slice filters.
void expect_same_store(const fs::path& from_pgn, const fs::path& from_counts) {
  EXPECT_EQ(store_contents(from_counts), store_contents(from_pgn));
  EXPECT_EQ(stats(from_counts), stats(from_pgn));
  for (const std::vector<std::string>& query : kStartQueries)
    EXPECT_EQ(explore(from_counts, query), explore(from_pgn, query));
}

// The first `plies` SAN moves of each of the first `games` games of a PGN file (comments,
// variations, NAGs, move numbers and results left out).
std::vector<std::vector<std::string>> opening_moves(const std::string& path, size_t games, size_t plies) {
  const std::string text = read_file(path);
  std::vector<std::vector<std::string>> out;
  const std::regex token(R"(\{[^}]*\}|\([^)]*\)|\$\d+|\d+\.+|1-0|0-1|1/2-1/2|\*|[^\s{}()]+)");
  size_t at = 0;
  while (out.size() < games) {
    // The movetext: after the tag section's blank line, up to the next game's tags.
    const size_t moves = text.find("\n\n", at);
    if (moves == std::string::npos) break;
    const size_t next = text.find("\n[", moves + 2);
    const std::string movetext =
        text.substr(moves + 2, next == std::string::npos ? std::string::npos : next - moves - 2);
    std::vector<std::string> san;
    for (auto it = std::sregex_iterator(movetext.begin(), movetext.end(), token);
         it != std::sregex_iterator() && san.size() < plies; ++it) {
      const std::string t = it->str();
      if (t[0] == '{' || t[0] == '(' || t[0] == '$' || std::isdigit(static_cast<unsigned char>(t[0])) ||
          t == "*")
        continue;
      san.push_back(t);
    }
    out.push_back(san);
    if (next == std::string::npos) break;
    at = next + 1;
  }
  return out;
}

TEST(DbFromCounts, TwoWholeFilesInTwoSetsMakeTheOneMachineStore) {
  TempDir dir;
  const fs::path pgn = dir / "pgn.db", counted = dir / "counts.db";
  ASSERT_EQ(db_add_files(pgn, {kTwic, kLichess}).exit_code, 0);
  CommandResult a = count({kTwic}, dir / "a", {"--partitions", "4"});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(count({kLichess}, dir / "b").exit_code, 0);
  CommandResult r = add_counts(counted, {dir / "a", dir / "b"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("created, 2 sources added"), std::string::npos) << r.out;
  expect_same_store(pgn, counted);

  // Every position of the first 10 plies of each sample's first 50 games, as explore shows it
  // (moves, statistics, top and recent games).
  std::set<std::string> lines;
  for (const std::string& input : {kTwic, kLichess})
    for (const std::vector<std::string>& game : opening_moves(input, 50, 10)) {
      std::string line;
      for (const std::string& san : game) {
        lines.insert(line);
        line += (line.empty() ? "" : " ") + san;
      }
    }
  EXPECT_GT(lines.size(), 300u);
  for (const std::string& line : lines) {
    SCOPED_TRACE(line);
    const std::string from_pgn = explore(pgn, {"--moves", line});
    EXPECT_NE(from_pgn.find("\"top_games\":[{"), std::string::npos);
    EXPECT_EQ(explore(counted, {"--moves", line}), from_pgn);
  }

  // db game reads a game back from its source, by the number and offset recorded.
  const std::string ids =
      sql_rows(counted, "SELECT printf('%016x', fingerprint) FROM games ORDER BY number DESC LIMIT 3");
  for (size_t at = 0; at < ids.size(); at = ids.find('\n', at) + 1) {
    const std::string id = ids.substr(at, 16);
    CommandResult game = run_bookforge({"db", "game", id, "--db", counted.string()});
    EXPECT_EQ(game.exit_code, 0) << game.err;
    EXPECT_NE(game.out.find("[White "), std::string::npos);
    EXPECT_EQ(game.out, run_bookforge({"db", "game", id, "--db", pgn.string()}).out);
  }
}

TEST(DbFromCounts, PartsOfOneFileInThreeSetsOfDifferentKMakeTheOneMachineStore) {
  TempDir dir;
  const fs::path pgn = dir / "pgn.db", counted = dir / "counts.db";
  ASSERT_EQ(db_add_files(pgn, {kTwic, kLichess}).exit_code, 0);
  std::vector<fs::path> sets;
  for (int i = 0; i < 3; ++i) {
    sets.push_back(dir / ("part" + std::to_string(i)));
    CommandResult c =
        count({kTwic}, sets.back(),
              {"--part", std::to_string(i) + "/3", "--partitions", std::to_string(1 << (2 * i))});
    ASSERT_EQ(c.exit_code, 0) << c.err;
  }
  sets.push_back(dir / "lichess");
  ASSERT_EQ(count({kLichess}, sets.back(), {"--partitions", "2"}).exit_code, 0);
  CommandResult r = add_counts(counted, sets);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // One source for the three parts, its games numbered from the file's start.
  EXPECT_NE(r.out.find("created, 2 sources added"), std::string::npos) << r.out;
  expect_same_store(pgn, counted);
  const std::string last = sql_rows(
      counted,
      "SELECT printf('%016x', fingerprint) FROM games WHERE source = 1 ORDER BY number DESC LIMIT 1");
  EXPECT_EQ(sql_rows(counted, "SELECT max(number) FROM games WHERE source = 1"), "2000\n");
  CommandResult game = run_bookforge({"db", "game", last.substr(0, 16), "--db", counted.string()});
  EXPECT_EQ(game.exit_code, 0) << game.err;
}

TEST(DbFromCounts, SetsOfSeveralInputsInPartsMakeTheOneMachineStore) {
  TempDir dir;
  const fs::path pgn = dir / "pgn.db", counted = dir / "counts.db";
  ASSERT_EQ(db_add_files(pgn, {kTwic, kLichess}).exit_code, 0);
  std::vector<fs::path> sets{dir / "a", dir / "b"};
  ASSERT_EQ(count({kTwic, kLichess}, sets[0], {"--part", "0/2", "--partitions", "8"}).exit_code, 0);
  ASSERT_EQ(count({kTwic, kLichess}, sets[1], {"--part", "1/2"}).exit_code, 0);
  CommandResult r = add_counts(counted, sets);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_same_store(pgn, counted);
}

// Half of twic's games again, in a file of their own after lichess's games.
std::string file_sharing_games(const TempDir& dir) {
  const std::string twic = read_file(kTwic);
  const size_t half = twic.find("\n[Event ", twic.size() / 2) + 1;
  write_file(dir / "more.pgn", read_file(kLichess) + "\n" + twic.substr(half));
  return (dir / "more.pgn").string();
}

TEST(DbFromCounts, SetsSharingGamesAreRefusedThenSkippedToTheOneMachineStore) {
  TempDir dir;
  const std::string more = file_sharing_games(dir);
  ASSERT_EQ(count({kTwic}, dir / "a", {"--partitions", "4"}).exit_code, 0);
  ASSERT_EQ(count({more}, dir / "b", {"--partitions", "2"}).exit_code, 0);
  CommandResult r = add_counts(dir / "x.db", {dir / "a", dir / "b"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("are counted in more than one set"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("count --find-duplicates"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "x.db"));

  ASSERT_EQ(run_bookforge({"count", "--find-duplicates", (dir / "a").string(), (dir / "b").string(), "-o",
                           (dir / "skip").string()})
                .exit_code,
            0);
  const std::string list = (dir / "skip" / "skip-0001.fingerprints").string();
  ASSERT_EQ(count({more}, dir / "b2", {"--partitions", "2", "--skip-games", list}).exit_code, 0);
  // Given in another order than the skip lists were made for, a skipped game would be kept in
  // the wrong source: refused.
  r = add_counts(dir / "x.db", {dir / "b2", dir / "a"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find((dir / "b2").string() + " left out with --skip-games the first copy of a game"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir / "x.db"));

  const fs::path pgn = dir / "pgn.db", counted = dir / "counts.db";
  ASSERT_EQ(db_add_files(pgn, {kTwic, more}).exit_code, 0);
  r = add_counts(counted, {dir / "a", dir / "b2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_same_store(pgn, counted);
}

TEST(DbFromCounts, SetsCountingEveryCopyMakeTheOneMachineStore) {
  TempDir dir;
  const std::string more = file_sharing_games(dir);
  ASSERT_EQ(count({kTwic}, dir / "a", {"--keep-duplicates"}).exit_code, 0);
  ASSERT_EQ(count({more}, dir / "b", {"--keep-duplicates", "--partitions", "4"}).exit_code, 0);
  const fs::path pgn = dir / "pgn.db", counted = dir / "counts.db";
  ASSERT_EQ(db_add_files(pgn, {kTwic, more}, {"--keep-duplicates"}).exit_code, 0);
  CommandResult r = add_counts(counted, {dir / "a", dir / "b"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_same_store(pgn, counted);
}

TEST(DbFromCounts, SetsAddedOntoAnExistingStoreMakeTheOneMachineStore) {
  TempDir dir;
  const fs::path pgn = dir / "pgn.db", counted = dir / "counts.db", mixed = dir / "mixed.db";
  ASSERT_EQ(db_add_files(pgn, {kTwic}).exit_code, 0);
  ASSERT_EQ(db_add_files(pgn, {kLichess}).exit_code, 0);
  ASSERT_EQ(count({kTwic}, dir / "a", {"--partitions", "2"}).exit_code, 0);
  ASSERT_EQ(count({kLichess}, dir / "b", {"--partitions", "8"}).exit_code, 0);
  // Counts onto counts, and counts onto a store made from PGN.
  ASSERT_EQ(add_counts(counted, {dir / "a"}).exit_code, 0);
  CommandResult r = add_counts(counted, {dir / "b"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("updated, 1 source added"), std::string::npos) << r.out;
  expect_same_store(pgn, counted);
  ASSERT_EQ(db_add_files(mixed, {kTwic}).exit_code, 0);
  ASSERT_EQ(add_counts(mixed, {dir / "b"}).exit_code, 0);
  expect_same_store(pgn, mixed);
}

// --- refusals: each leaves the store as it was, or makes none ---

// `db add --from-counts SETS` onto `db` (absent, or as it is) fails naming `why`, and `db` is
// unchanged.
void expect_refused(const fs::path& db, const std::vector<fs::path>& sets, const std::string& why,
                    const std::vector<std::string>& more = {}) {
  const bool existed = fs::exists(db);
  const std::string before = existed ? store_contents(db) : "";
  CommandResult r = add_counts(db, sets, more);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
  EXPECT_EQ(fs::exists(db), existed);
  if (existed) {
    EXPECT_EQ(store_contents(db), before);
  }
  for (const auto& entry : fs::directory_iterator(db.parent_path()))
    EXPECT_EQ(entry.path().filename().string().find(".tmp-"), std::string::npos) << entry.path();
}

TEST(DbFromCounts, CountsForABookAreRefused) {
  TempDir dir;
  ASSERT_EQ(run_bookforge({"count", kTwic, "-o", (dir / "book").string(), "--progress", "never"}).exit_code,
            0);
  expect_refused(dir / "x.db", {dir / "book"},
                 (dir / "book").string() + ": counted for a book: a store needs `count --for store`");
}

TEST(DbFromCounts, SetsCountedWithOtherOptionsAreRefusedNamingTheOption) {
  TempDir dir;
  ASSERT_EQ(count({kTwic}, dir / "a", {"--max-ply", "40"}).exit_code, 0);
  ASSERT_EQ(count({kLichess}, dir / "b").exit_code, 0);
  ASSERT_EQ(count({kLichess}, dir / "c", {"--game-plies", "8"}).exit_code, 0);
  expect_refused(dir / "x.db", {dir / "a", dir / "b"},
                 "max_ply: 40 in " + (dir / "a").string() + ", 60 in " + (dir / "b").string());
  expect_refused(dir / "x.db", {dir / "a", dir / "c"}, "max_ply: 40");
  ASSERT_EQ(count({kTwic}, dir / "d").exit_code, 0);
  expect_refused(dir / "x.db", {dir / "d", dir / "c"}, "different --game-plies");
  // Flags that shape counting were the count's to give.
  expect_refused(dir / "x.db", {dir / "b"}, "--min-elo shapes the counting", {"--min-elo", "2000"});
  expect_refused(dir / "x.db", {dir / "b"}, "--keep-duplicates needs counting again", {"--keep-duplicates"});

  // Onto a store counted otherwise, as db add refuses a file (--force adds anyway).
  ASSERT_EQ(db_add_files(dir / "s.db", {kTwic}, {"--max-ply", "40"}).exit_code, 0);
  expect_refused(dir / "s.db", {dir / "b"}, "built with max-ply 40");
  ASSERT_EQ(db_add_files(dir / "p.db", {kTwic}, {"--game-plies", "20"}).exit_code, 0);
  expect_refused(dir / "p.db", {dir / "b"}, "keeps the games of positions up to ply 20");
}

TEST(DbFromCounts, AMissingPartIsRefusedNamingIt) {
  TempDir dir;
  ASSERT_EQ(count({kTwic}, dir / "p0", {"--part", "0/3"}).exit_code, 0);
  ASSERT_EQ(count({kTwic}, dir / "p2", {"--part", "2/3"}).exit_code, 0);
  expect_refused(dir / "x.db", {dir / "p0", dir / "p2"}, kTwic + ": part 1/3 is missing");
}

TEST(DbFromCounts, DamagedGameFilesAreRefusedNamingTheFile) {
  for (const char* name : {store::kSetRecordsFile, store::kSetPositionsFile}) {
    for (int damage = 0; damage < 3; ++damage) {
      TempDir dir;
      ASSERT_EQ(count({kTwic}, dir / "a").exit_code, 0);
      const fs::path file = dir / "a" / name;
      std::string bytes = read_file(file);
      if (damage == 0) bytes[bytes.size() / 2] ^= 0x20;
      if (damage == 1) bytes.resize(bytes.size() - 30);
      if (damage == 2) bytes[bytes.size() - 1] ^= 1;
      write_file(file, bytes);
      SCOPED_TRACE(std::string(name) + " damage " + std::to_string(damage));
      expect_refused(dir / "x.db", {dir / "a"}, file.string() + ": ");
    }
    TempDir dir;
    ASSERT_EQ(count({kTwic}, dir / "a").exit_code, 0);
    fs::remove(dir / "a" / name);
    expect_refused(dir / "x.db", {dir / "a"}, (dir / "a").string() + ": no " + name);
  }
}

TEST(DbFromCounts, InputsOrGamesTheStoreHoldsAreRefused) {
  TempDir dir;
  const std::string more = file_sharing_games(dir);
  ASSERT_EQ(db_add_files(dir / "s.db", {kTwic}).exit_code, 0);
  ASSERT_EQ(count({kTwic}, dir / "a").exit_code, 0);
  expect_refused(dir / "s.db", {dir / "a"}, kTwic + ": already in the store");
  ASSERT_EQ(count({more}, dir / "b").exit_code, 0);
  expect_refused(dir / "s.db", {dir / "b"}, "of the sets' games already");
}

}  // namespace
}  // namespace bookforge::test
