// `bookforge build --from-db`: the book built from a store equals, byte for byte, the book built
// from the same PGN files with the same filters and rules.
#include <cstdlib>

#include "e2e/db_helpers.h"

namespace bookforge::test {
namespace {

namespace fs = std::filesystem;

void run_ok(const std::vector<std::string>& args) {
  CommandResult r = run_bookforge(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

// Adds the files one command at a time (the store grows incrementally), then builds the book
// from the store and from the PGN files with the same flags, and compares the bytes.
void expect_same_book(const TempDir& dir, const std::vector<fs::path>& files,
                      const std::vector<std::string>& add_flags,
                      const std::vector<std::string>& pgn_build_flags,
                      const std::vector<std::string>& db_build_flags) {
  const fs::path db = dir / "t.sqlite", from_pgn = dir / "pgn.bin", from_db = dir / "db.bin";
  for (const fs::path& file : files) {
    std::vector<std::string> args{"db", "add", file.string(), "--db", db.string(), "--progress", "never"};
    args.insert(args.end(), add_flags.begin(), add_flags.end());
    ASSERT_NO_FATAL_FAILURE(run_ok(args));
  }
  std::vector<std::string> pgn_args{"build", "-o", from_pgn.string(), "--progress", "never"};
  for (const fs::path& file : files) pgn_args.push_back(file.string());
  pgn_args.insert(pgn_args.end(), pgn_build_flags.begin(), pgn_build_flags.end());
  ASSERT_NO_FATAL_FAILURE(run_ok(pgn_args));
  std::vector<std::string> db_args{"build", "--from-db", db.string(), "-o", from_db.string()};
  db_args.insert(db_args.end(), db_build_flags.begin(), db_build_flags.end());
  ASSERT_NO_FATAL_FAILURE(run_ok(db_args));
  const std::string expected = read_file(from_pgn);
  EXPECT_GT(expected.size(), 16u * 100) << "too small a book to prove anything";
  EXPECT_TRUE(read_file(from_db) == expected) << "the book from the store differs from the book from PGN";
}

TEST(DbBuild, DefaultRulesGiveTheSameBookAsFromPgn) {
  TempDir dir;
  expect_same_book(dir, {sample("twic0920-2000.pgn"), sample("lichess-2016-05-1000.pgn")}, {}, {}, {});
}

TEST(DbBuild, LooserRulesFiltersMaxPlyAndWeightsGiveTheSameBook) {
  // Small thresholds keep most of the tree, so nearly every row of the store matters.
  TempDir dir;
  const std::vector<std::string> rules{"--min-games", "1",      "--min-move-games", "1",
                                       "--weight",    "rating", "--no-drop-losing"};
  std::vector<std::string> pgn_flags{"--max-ply", "30", "--min-avg-elo", "1800"};
  pgn_flags.insert(pgn_flags.end(), rules.begin(), rules.end());
  std::vector<std::string> db_flags = rules;
  db_flags.insert(db_flags.end(), {"--min-avg-elo", "1800"});  // the store's filter, given again: accepted
  expect_same_book(dir, {sample("lichess-2016-05-1000.pgn"), sample("twic0920-2000.pgn")},
                   {"--max-ply", "30", "--min-avg-elo", "1800"}, pgn_flags, db_flags);
}

TEST(DbBuild, PolyglotRulesOnAStoreThatCountsRepeats) {
  TempDir dir;
  expect_same_book(dir, {sample("twic0920-2000.pgn"), sample("lichess-2016-05-1000.pgn")},
                   {"--count-repeats", "--max-ply", "1024"}, {"--rules", "polyglot"},
                   {"--rules", "polyglot"});
}

TEST(DbBuild, WhatTheStoreCannotProvideIsRefused) {
  TempDir dir;
  const fs::path db = dir / "t.sqlite";
  ASSERT_NO_FATAL_FAILURE(run_ok({"db", "add", sample("lichess-2016-05-1000.pgn").string(), "--db",
                                  db.string(), "--max-ply", "40", "--progress", "never"}));
  CommandResult ply =
      run_bookforge({"build", "--from-db", db.string(), "-o", (dir / "a.bin").string(), "--max-ply", "60"});
  EXPECT_EQ(ply.exit_code, 1);
  EXPECT_NE(ply.err.find("max-ply 40"), std::string::npos) << ply.err;
  CommandResult filters =
      run_bookforge({"build", "--from-db", db.string(), "-o", (dir / "a.bin").string(), "--min-elo", "2000"});
  EXPECT_EQ(filters.exit_code, 1);
  EXPECT_NE(filters.err.find("min-elo=2000"), std::string::npos) << filters.err;
  CommandResult both =
      run_bookforge({"build", "--from-db", db.string(), sample("lichess-2016-05-1000.pgn").string(), "-o",
                     (dir / "a.bin").string()});
  EXPECT_EQ(both.exit_code, 2);
  CommandResult neither = run_bookforge({"build", "-o", (dir / "a.bin").string()});
  EXPECT_EQ(neither.exit_code, 2);
  CommandResult not_a_store = run_bookforge(
      {"build", "--from-db", sample("lichess-2016-05-1000.pgn").string(), "-o", (dir / "a.bin").string()});
  EXPECT_EQ(not_a_store.exit_code, 1);
  EXPECT_NE(not_a_store.err.find("not a bookforge store"), std::string::npos) << not_a_store.err;
  EXPECT_FALSE(fs::exists(dir / "a.bin"));
}

TEST(DbBuild, PgnmentorPartOneGivesTheSameBook) {
  BOOKFORGE_SHARED_OR_SKIP(part1, "games/pgnmentor_players_part1_Alekhine-Ivanchuk.pgn.zst");
  if (!std::getenv("BOOKFORGE_LONG_TESTS")) GTEST_SKIP() << "set BOOKFORGE_LONG_TESTS=1 (137k games)";
  TempDir dir;
  expect_same_book(dir, {part1}, {"--max-ply", "40"}, {"--max-ply", "40"}, {});
}

}  // namespace
}  // namespace bookforge::test
