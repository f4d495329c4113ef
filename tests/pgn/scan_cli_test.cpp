// `bookforge scan` end to end: the JSON report, the human summary, exit codes, standard
// input, filters and the progress line.
#include <gtest/gtest.h>

#include <regex>

#include "support/test_support.h"

namespace bookforge::test {
namespace {

std::string quirk(const std::string& name) { return (source_dir() / "tests/data/pgn" / name).string(); }

// The number after "key": in a flat JSON text, or -1.
long long json_number(const std::string& json, const std::string& key) {
  std::smatch m;
  if (!std::regex_search(json, m, std::regex("\"" + key + "\": ?(-?[0-9.]+)"))) return -1;
  return std::stoll(m[1]);
}

TEST(ScanCli, JsonReportHasTheRequiredKeys) {
  CommandResult r =
      run_bookforge({"scan", "--json", "--threads", "2", quirk("bad_games.pgn"), quirk("variants.pgn")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* key : {"games", "accepted", "rejected", "bad", "bad_reasons", "unsupported_variant",
                          "plies", "bytes", "seconds", "bad_examples"})
    EXPECT_NE(r.out.find(std::string("\"") + key + "\":"), std::string::npos)
        << key << " missing in " << r.out;
  EXPECT_EQ(json_number(r.out, "games"), 9);
  EXPECT_EQ(json_number(r.out, "accepted"), 2);
  EXPECT_EQ(json_number(r.out, "bad"), 5);
  EXPECT_EQ(json_number(r.out, "unsupported_variant"), 2);
  EXPECT_EQ(json_number(r.out, "illegal_move"), 1);
  EXPECT_EQ(json_number(r.out, "unterminated_comment"), 1);
  EXPECT_EQ(json_number(r.out, "bytes"), (long long)(std::filesystem::file_size(quirk("bad_games.pgn")) +
                                                     std::filesystem::file_size(quirk("variants.pgn"))));
  EXPECT_NE(r.out.find("\"reason\":\"ambiguous_move\""), std::string::npos);
  EXPECT_EQ(r.out.back(), '\n');
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1);
}

TEST(ScanCli, HumanSummaryShowsBadGamesInFull) {
  CommandResult r = run_bookforge({"scan", quirk("bad_games.pgn")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("games                6"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("bad_games.pgn:4: game 1: move 2. Ke3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unsupported variant"), std::string::npos);
}

TEST(ScanCli, StrictTurnsTheFirstBadGameIntoAnError) {
  CommandResult r = run_bookforge({"scan", "--strict", quirk("bad_games.pgn")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("bad_games.pgn:4: game 1"), std::string::npos) << r.err;
  EXPECT_EQ(run_bookforge({"scan", "--strict", quirk("crlf.pgn")}).exit_code, 0);
}

TEST(ScanCli, InputErrorsExitWithOne) {
  CommandResult missing = run_bookforge({"scan", "/no/such/file.pgn"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("/no/such/file.pgn"), std::string::npos);

  TempDir dir;
  CommandResult gz = run_program({"gzip", "-c", quirk("crlf.pgn")});
  std::string packed = gz.out;
  packed.resize(packed.size() - 12);  // cut inside the deflate data
  write_file(dir / "cut.pgn.gz", packed);
  CommandResult cut = run_bookforge({"scan", (dir / "cut.pgn.gz").string()});
  EXPECT_EQ(cut.exit_code, 1);
  EXPECT_NE(cut.err.find("cut.pgn.gz"), std::string::npos) << cut.err;
  EXPECT_NE(cut.err.find("byte"), std::string::npos) << cut.err;
}

TEST(ScanCli, BadFlagsExitWithTwo) {
  for (std::vector<std::string> args :
       {std::vector<std::string>{"scan", "--speed", "fast", quirk("crlf.pgn")},
        {"scan", "--tag", "White", quirk("crlf.pgn")},
        {"scan", "--tag", "White=(", quirk("crlf.pgn")},
        {"scan", "--date-from", "20x0", quirk("crlf.pgn")},
        {"scan", "--results", "2-0", quirk("crlf.pgn")},
        {"scan", "--progress", "sometimes", quirk("crlf.pgn")},
        {"scan", "--max-ply", "-3", quirk("crlf.pgn")},
        {"scan"}}) {
    CommandResult r = run_bookforge(args);
    EXPECT_EQ(r.exit_code, 2) << args[1] << ": " << r.err;
  }
}

TEST(ScanCli, ReadsStandardInput) {
  const std::string text = read_file(quirk("no_tags.pgn")) + read_file(quirk("results.pgn"));
  CommandResult r = run_bookforge({"scan", "--json", "-"}, text);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json_number(r.out, "games"), 13);
  EXPECT_EQ(json_number(r.out, "bytes"), (long long)text.size());
  // Compressed standard input works too.
  TempDir dir;
  write_file(dir / "in.pgn", text);
  CommandResult packed = run_program({"zstd", "-q", "-c", (dir / "in.pgn").string()});
  CommandResult z = run_bookforge({"scan", "--json", "-"}, packed.out);
  ASSERT_EQ(z.exit_code, 0) << z.err;
  EXPECT_EQ(json_number(z.out, "games"), 13);
}

TEST(ScanCli, FiltersAreCountedByName) {
  TempDir dir;
  write_file(
      dir / "g.pgn",
      "[WhiteElo \"2700\"]\n[BlackElo \"2650\"]\n[TimeControl \"180+2\"]\n[WhiteTitle \"BOT\"]\n1. e4 1-0\n\n"
      "[WhiteElo \"2700\"]\n[BlackElo \"2650\"]\n[TimeControl \"180+2\"]\n1. e4 *\n\n"
      "[WhiteElo \"1500\"]\n[BlackElo \"2650\"]\n[TimeControl \"180+2\"]\n1. e4 0-1\n\n"
      "[WhiteElo \"2700\"]\n[BlackElo \"2650\"]\n[TimeControl \"30+0\"]\n1. e4 0-1\n\n"
      "[WhiteElo \"2700\"]\n[BlackElo \"2650\"]\n[TimeControl \"600+0\"]\n1. e4 e5 0-1\n");
  CommandResult r = run_bookforge({"scan", "--json", "--min-elo", "2000", "--results", "1-0,0-1,1/2-1/2",
                                   "--speed", "blitz,rapid", "--exclude-tag", "WhiteTitle=BOT", "--min-plies",
                                   "2", (dir / "g.pgn").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json_number(r.out, "games"), 5);
  EXPECT_EQ(json_number(r.out, "accepted"), 1);
  EXPECT_EQ(json_number(r.out, "min_elo"), 1);
  EXPECT_EQ(json_number(r.out, "results"), 1);
  EXPECT_EQ(json_number(r.out, "speed"), 1);
  EXPECT_EQ(json_number(r.out, "exclude_tag"), 1);
  EXPECT_NE(r.out.find("\"filters\":\"min-elo=2000; results=0-1,1-0,1/2-1/2; speed=blitz,rapid; "
                       "exclude-tag=WhiteTitle=BOT; min-plies=2\""),
            std::string::npos)
      << r.out;
}

TEST(ScanCli, ProgressLineOnlyWhenAskedOrOnATerminal) {
  CommandResult always = run_bookforge({"scan", "--progress", "always", quirk("crlf.pgn")});
  EXPECT_EQ(always.exit_code, 0);
  EXPECT_NE(always.err.find('\r'), std::string::npos);
  // stderr is a pipe here, so "auto" stays quiet; --quiet silences "always".
  EXPECT_EQ(run_bookforge({"scan", quirk("crlf.pgn")}).err, "");
  EXPECT_EQ(run_bookforge({"scan", "--quiet", "--progress", "always", quirk("crlf.pgn")}).err, "");
}

TEST(ScanCli, MaxPlyAndThreadsDoNotChangeCounts) {
  CommandResult one = run_bookforge({"scan", "--json", "--threads", "1", "--max-ply", "3", quirk("crlf.pgn"),
                                     quirk("fen_setup.pgn"), quirk("no_tags.pgn")});
  CommandResult four = run_bookforge({"scan", "--json", "--threads", "4", "--max-ply", "3", quirk("crlf.pgn"),
                                      quirk("fen_setup.pgn"), quirk("no_tags.pgn")});
  ASSERT_EQ(one.exit_code, 0);
  EXPECT_EQ(json_number(one.out, "plies"), json_number(four.out, "plies"));
  EXPECT_EQ(json_number(one.out, "games"), json_number(four.out, "games"));
  EXPECT_EQ(json_number(one.out, "max_ply"), 3);
}

}  // namespace
}  // namespace bookforge::test
