// Duplicate games counted once (issue 14, item 5): `build` and `db add` drop the copies of a
// game (same players, date, result, moves, ratings, time control and start), across the files
// of one run and, for a store, across adds; --keep-duplicates counts every copy.
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "e2e/db_helpers.h"

namespace bookforge::test {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

const std::string kTwic = "twic0920-2000.pgn";
const std::string kLichess = "lichess-2016-05-1000.pgn";

// The games of a PGN text, each from its "[Event " line to the next one.
std::vector<std::string> games_of(const std::string& pgn) {
  std::vector<std::string> games;
  size_t at = pgn.find("[Event ");
  while (at != std::string::npos) {
    const size_t next = pgn.find("\n[Event ", at + 1);
    games.push_back(pgn.substr(at, next == std::string::npos ? std::string::npos : next + 1 - at));
    at = next == std::string::npos ? next : next + 1;
  }
  return games;
}

std::string joined(const std::vector<std::string>& games, size_t from, size_t to) {
  std::string text;
  for (size_t i = from; i < to && i < games.size(); ++i) text += games[i] + "\n";
  return text;
}

CommandResult build(const std::vector<std::string>& inputs, const fs::path& book,
                    std::vector<std::string> more = {}) {
  std::vector<std::string> args{"build", "-o", book.string(), "--progress", "never"};
  args.insert(args.begin() + 1, inputs.begin(), inputs.end());
  args.insert(args.end(), more.begin(), more.end());
  return run_bookforge(args);
}

// A number from the build's JSON report: the digits after `"name": ` at its first occurrence.
// A build report's games.duplicates.
Json duplicates_of(const std::string& report) { return Json::parse(report)["games"]["duplicates"]; }

uint64_t report_number(const std::string& report, const std::string& name) {
  const std::string label = "\"" + name + "\": ";
  const size_t at = report.find(label);
  if (at == std::string::npos) return UINT64_MAX;
  return std::stoull(report.substr(at + label.size()));
}

TEST(Duplicates, AFileGivenWithItselfBuildsTheBookOfTheFileAlone) {
  TempDir dir;
  const std::string twic = sample(kTwic).string();
  write_file(dir / "twice.pgn", read_file(twic) + "\n" + read_file(twic));
  CommandResult once = build({twic}, dir / "once.bin");
  ASSERT_EQ(once.exit_code, 0) << once.err;
  EXPECT_NE(once.out.find("from 2000 games (0 duplicates dropped"), std::string::npos) << once.out;
  for (const std::string threads : {"1", "3"}) {
    const fs::path book = dir / ("twice-" + threads + ".bin");
    const fs::path report = dir / ("twice-" + threads + ".json");
    CommandResult twice =
        build({(dir / "twice.pgn").string()}, book, {"--threads", threads, "--report", report.string()});
    ASSERT_EQ(twice.exit_code, 0) << twice.err;
    EXPECT_EQ(read_file(book), read_file(dir / "once.bin")) << threads << " threads";
    EXPECT_NE(twice.out.find("from 2000 games (2000 duplicates dropped"), std::string::npos) << twice.out;
    const std::string json = read_file(report);
    EXPECT_EQ(duplicates_of(json), Json({{"dropped", 2000}, {"kept", false}})) << json;
    EXPECT_EQ(report_number(json, "accepted"), 4000u);
  }
  // The same file given twice on the command line is the same case.
  CommandResult given_twice = build({twic, twic}, dir / "given-twice.bin", {"--threads", "2"});
  ASSERT_EQ(given_twice.exit_code, 0) << given_twice.err;
  EXPECT_EQ(read_file(dir / "given-twice.bin"), read_file(dir / "once.bin"));
}

TEST(Duplicates, KeepDuplicatesCountsEveryCopy) {
  TempDir dir;
  const std::string twic = sample(kTwic).string();
  write_file(dir / "twice.pgn", read_file(twic) + "\n" + read_file(twic));
  ASSERT_EQ(build({twic}, dir / "once.bin", {"--report", (dir / "once.json").string()}).exit_code, 0);
  CommandResult kept = build({(dir / "twice.pgn").string()}, dir / "kept.bin",
                             {"--keep-duplicates", "--report", (dir / "kept.json").string()});
  ASSERT_EQ(kept.exit_code, 0) << kept.err;
  EXPECT_NE(kept.out.find("from 4000 games (0 spills)"), std::string::npos) << kept.out;
  const std::string once = read_file(dir / "once.json"), twice = read_file(dir / "kept.json");
  EXPECT_EQ(duplicates_of(twice), Json({{"dropped", 0}, {"kept", true}})) << twice;
  // The tally counted every game and every ply twice.
  const std::string once_tally = once.substr(once.find("\"tally\": ")),
                    twice_tally = twice.substr(twice.find("\"tally\": "));
  ASSERT_EQ(report_number(once_tally, "games"), 2000u);
  EXPECT_EQ(report_number(twice_tally, "games"), 4000u);
  EXPECT_EQ(report_number(twice_tally, "plies"), 2 * report_number(once_tally, "plies"));
  EXPECT_NE(read_file(dir / "kept.bin"), read_file(dir / "once.bin"));

  // In a store the counts of every row double.
  const fs::path single = dir / "single.sqlite", doubled = dir / "doubled.sqlite";
  ASSERT_EQ(db_add_files(single, {twic}).exit_code, 0);
  CommandResult add = db_add_files(doubled, {(dir / "twice.pgn").string()}, {"--keep-duplicates"});
  ASSERT_EQ(add.exit_code, 0) << add.err;
  EXPECT_NE(add.out.find("duplicates 2000 kept"), std::string::npos) << add.out;
  EXPECT_EQ(
      sql_rows(
          doubled,
          "SELECT key, move, white / 2, draws / 2, black / 2, games / 2, rating_sum / 2, "
          "opponent_rating_sum / 2, rated / 2, opponents_rated / 2, first_ply FROM tree ORDER BY key, move"),
      sql_rows(single, std::string("SELECT ") + kTreeCounts + " FROM tree ORDER BY key, move"));
  // The fingerprints are recorded once each all the same.
  EXPECT_EQ(sql_rows(doubled, "SELECT count(*) FROM games"), "2000\n");
}

TEST(Duplicates, ThePolyglotPresetCountsEveryCopyUnlessToldToDrop) {
  // polyglot make-book counts every copy, so --rules polyglot does (book_polyglot_test.cpp
  // compares the books); a flag given says otherwise.
  TempDir dir;
  const std::string twic = sample(kTwic).string();
  const std::string twice = (dir / "twice.pgn").string();
  write_file(twice, read_file(twic) + "\n" + read_file(twic));
  const std::vector<std::string> polyglot{"--rules", "polyglot", "--max-ply", "20"};
  auto with = [&](std::vector<std::string> more) {
    more.insert(more.begin(), polyglot.begin(), polyglot.end());
    return more;
  };
  CommandResult preset =
      build({twice}, dir / "preset.bin", with({"--report", (dir / "preset.json").string()}));
  ASSERT_EQ(preset.exit_code, 0) << preset.err;
  EXPECT_NE(preset.out.find("from 4000 games (0 spills)"), std::string::npos) << preset.out;
  EXPECT_EQ(duplicates_of(read_file(dir / "preset.json")), Json({{"dropped", 0}, {"kept", true}}));
  CommandResult kept = build({twice}, dir / "kept.bin", with({"--keep-duplicates"}));
  ASSERT_EQ(kept.exit_code, 0) << kept.err;
  EXPECT_EQ(read_file(dir / "kept.bin"), read_file(dir / "preset.bin"));

  CommandResult dropped = build({twice}, dir / "dropped.bin", with({"--drop-duplicates", "--threads", "3"}));
  ASSERT_EQ(dropped.exit_code, 0) << dropped.err;
  EXPECT_NE(dropped.out.find("from 2000 games (2000 duplicates dropped"), std::string::npos) << dropped.out;
  ASSERT_EQ(build({twic}, dir / "once.bin", polyglot).exit_code, 0);
  EXPECT_EQ(read_file(dir / "dropped.bin"), read_file(dir / "once.bin"));
  EXPECT_NE(read_file(dir / "dropped.bin"), read_file(dir / "preset.bin"));

  // --drop-duplicates is bookforge's own default, said out loud.
  ASSERT_EQ(build({twice}, dir / "default.bin", {"--drop-duplicates"}).exit_code, 0);
  ASSERT_EQ(build({twic}, dir / "default-once.bin").exit_code, 0);
  EXPECT_EQ(read_file(dir / "default.bin"), read_file(dir / "default-once.bin"));
  // A store's games were counted when added.
  CommandResult from_db =
      build({}, dir / "db.bin", {"--from-db", (dir / "x.sqlite").string(), "--drop-duplicates"});
  EXPECT_EQ(from_db.exit_code, 2) << from_db.err;
  EXPECT_NE(from_db.err.find("excludes --from-db"), std::string::npos) << from_db.err;
}

TEST(Duplicates, ALaterAddCountsTheGamesTheStoreHoldsOnce) {
  TempDir dir;
  const std::string twic = sample(kTwic).string(), lichess = sample(kLichess).string();
  const std::vector<std::string> twic_games = games_of(read_file(twic));
  ASSERT_EQ(twic_games.size(), 2000u);
  // B: 500 of A's games (from its middle) and 1000 new ones.
  write_file(dir / "b.pgn", joined(twic_games, 700, 1200) + read_file(lichess));

  const fs::path one_by_one = dir / "one.sqlite", together = dir / "together.sqlite";
  ASSERT_EQ(db_add_files(one_by_one, {twic}).exit_code, 0);
  CommandResult b = db_add_files(one_by_one, {(dir / "b.pgn").string()}, {"--threads", "3"});
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_NE(b.out.find("duplicates 500 dropped"), std::string::npos) << b.out;
  EXPECT_NE(b.out.find("b.pgn: 1000 games"), std::string::npos) << b.out;
  CommandResult ab = db_add_files(together, {twic, lichess}, {"--threads", "1"});
  ASSERT_EQ(ab.exit_code, 0) << ab.err;
  EXPECT_NE(ab.out.find("duplicates 0 dropped"), std::string::npos) << ab.out;
  EXPECT_EQ(dump_tree(one_by_one), dump_tree(together));
  EXPECT_EQ(sql_rows(one_by_one, "SELECT sum(games) FROM sources"), "3000\n");
  EXPECT_EQ(sql_rows(one_by_one, "SELECT count(*) FROM games"), "3000\n");
  EXPECT_EQ(sql_rows(one_by_one, "SELECT fingerprint FROM games"),
            sql_rows(together, "SELECT fingerprint FROM games"));

  // Within one add, over several files: the copies in the second file are dropped.
  const fs::path both = dir / "both.sqlite";
  CommandResult in_one = db_add_files(both, {twic, (dir / "b.pgn").string()}, {"--threads", "2"});
  ASSERT_EQ(in_one.exit_code, 0) << in_one.err;
  EXPECT_NE(in_one.out.find("duplicates 500 dropped"), std::string::npos) << in_one.out;
  EXPECT_EQ(dump_tree(both), dump_tree(together));
}

TEST(Duplicates, WhatMakesTwoRecordsOneGame) {
  TempDir dir;
  const std::string game =
      "[Event \"A\"]\n[Site \"Here\"]\n[Date \"2020.01.02\"]\n[White \"M\xc3\xbcller\"]\n[Black \"Smith\"]\n"
      "[Result \"1-0\"]\n[WhiteElo \"2400\"]\n[BlackElo \"2300\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n";
  auto with = [&](const std::string& from, const std::string& to, std::string copy = "") {
    if (copy.empty()) copy = game;
    copy.replace(copy.find(from), from.size(), to);
    return copy;
  };
  // Copies: another event and site, the player's name in Latin-1, a comment in the moves.
  const std::string copies = with("[Event \"A\"]\n[Site \"Here\"]", "[Event \"B\"]\n[Site \"There\"]") +
                             with("M\xc3\xbcller", "M\xfcller") + with("2. Nf3", "{ main line } 2. Nf3");
  // Other games: another rating, result, date, player, time control or move.
  const std::string others = with("\"2400\"", "\"2401\"") +
                             with("a6 1-0", "a6 1/2-1/2", with("\"1-0\"]", "\"1/2-1/2\"]")) +
                             with("2020.01.02", "2020.01.03") + with("Smith", "Smyth") +
                             with("[Result", "[TimeControl \"300+0\"]\n[Result") + with("a6", "d6");
  write_file(dir / "games.pgn", game + copies + others);
  CommandResult r = build({(dir / "games.pgn").string()}, dir / "book.bin", {"--min-games", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("from 7 games (3 duplicates dropped"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace bookforge::test
