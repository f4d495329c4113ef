// Values on the command line and in --config files: negative numbers never wrap (every numeric
// flag of every subcommand is checked in cli_test.cpp); dates are calendar dates; config files
// are TOML, strictly; a mistyped subcommand is answered with the closest one; --threads is
// bounded and --memory holds whatever the thread count; a FEN given on the command line is
// command-line input, and one with the line break of a file is accepted.
#include <regex>

#include "support/test_support.h"

namespace bookforge::test {
namespace {

std::filesystem::path twic_sample() { return source_dir() / "data-samples" / "twic0920-2000.pgn"; }

const std::string kStart(chess::kStartFen);

TEST(CliValues, NegativeCountsAreRefusedNotWrapped) {
  TempDir tmp;
  const std::string book = (tmp / "b.bin").string();
  for (const auto& [flag, value] : std::vector<std::pair<std::string, std::string>>{
           {"--min-games", "-1"}, {"--min-move-games", "-5"}, {"--max-ply", "-3"}, {"--threads", "-2"}}) {
    CommandResult r = run_bookforge({"build", twic_sample().string(), "-o", book, "--quiet", flag, value});
    EXPECT_EQ(r.exit_code, 2) << flag << " " << value << ": " << r.err;
    EXPECT_NE(r.err.find(flag + ": expected a whole number in 0.."), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("'" + value + "'"), std::string::npos) << r.err;
    EXPECT_TRUE(std::filesystem::is_empty(tmp.path())) << "nothing written for " << flag;
  }
  CommandResult r = run_bookforge({"pick", book, "--seed", "-1"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--seed: expected a whole number in 0..18446744073709551615, got '-1'"),
            std::string::npos)
      << r.err;
}

TEST(CliValues, NotANumberNamesTheFlagAndAPlainRange) {
  CommandResult r = run_bookforge({"build", twic_sample().string(), "-o", "x.bin", "--max-ply", "abc"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--max-ply: expected a whole number in 0..65534, got 'abc'"), std::string::npos)
      << r.err;
  r = run_bookforge({"build", twic_sample().string(), "-o", "x.bin", "--min-move-share", "-1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--min-move-share: expected a number at least 0, got '-1'"), std::string::npos)
      << r.err;
  // Leading zeros are decimal, not octal.
  TempDir tmp;
  r = run_bookforge({"build", twic_sample().string(), "-o", (tmp / "b.bin").string(), "--quiet", "--max-ply",
                     "010", "--report", (tmp / "r.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(read_file(tmp / "r.json").find("max-ply 10,"), std::string::npos) << read_file(tmp / "r.json");
}

CommandResult scan_dates(const std::string& from, const std::string& to = "") {
  std::vector<std::string> args = {"scan",  twic_sample().string(), "--progress",
                                   "never", "--date-from",          from};
  if (!to.empty()) args.insert(args.end(), {"--date-to", to});
  return run_bookforge(args);
}

TEST(CliValues, DatesAreCalendarDates) {
  for (const char* bad : {"2012.13.45", "2012.00", "2012.02.30", "2011.02.29", "2012.04.31", "2012.01.00",
                          "2012.??.05", "12.01.01", "2012/01/01"}) {
    CommandResult r = scan_dates(bad);
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.err;
    EXPECT_NE(r.err.find("--date-from"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(bad), std::string::npos) << r.err;
  }
  EXPECT_NE(scan_dates("2012.13.45").err.find("no month 13"), std::string::npos);
  EXPECT_NE(scan_dates("2011.02.29").err.find("no day 29"), std::string::npos);
  EXPECT_EQ(run_bookforge({"build", "-o", "x.bin", "--date-to", "2012.13.45"}).exit_code, 2);
  for (const char* good :
       {"2012", "2012.02", "2012.02.29", "2000.02.29", "2012-12-31", "2012.??.??", "2012.05.??"}) {
    CommandResult r = scan_dates(good);
    EXPECT_EQ(r.exit_code, 0) << good << ": " << r.err;
  }
}

TEST(CliValues, ConfigFilesAreTomlAndUnknownKeysAreErrors) {
  TempDir tmp;
  auto build_with = [&](const std::string& toml) {
    write_file(tmp / "rules.toml", toml);
    return run_bookforge({"build", twic_sample().string(), "-o", (tmp / "b.bin").string(), "--quiet",
                          "--config", (tmp / "rules.toml").string(), "--report", (tmp / "r.json").string()});
  };
  // A multi-line array, a section named after the command, a TOML date.
  CommandResult r = build_with(
      "# broad\n"
      "max-ply = 30\n"
      "results = [\n  \"1-0\",\n  \"0-1\",  # decisive games only\n]\n"
      "[build]\n"
      "min-move-games = 2\n"
      "date-from = 2000-01-01\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string report = read_file(tmp / "r.json");
  EXPECT_NE(report.find("max-ply 30,"), std::string::npos) << report;
  EXPECT_NE(report.find("2000.01.01"), std::string::npos) << report;
  std::filesystem::remove(tmp / "b.bin");
  std::filesystem::remove(tmp / "r.json");

  struct Bad {
    std::string toml, expected;
  };
  for (const Bad& bad : std::vector<Bad>{
           {"max-ply = 30\nmin-move-game = 2\n", "rules.toml:2: unknown setting 'min-move-game'"},
           {"max-ply = 30\n\n[biuld]\nmax-ply = 20\n", "rules.toml:3: unknown section [biuld]"},
           {"[build]\nside = \"white\"\nmax-pli = 20\n", "rules.toml:3: unknown setting 'max-pli'"},
           {"min-games = -1\n", "rules.toml:1: --min-games: expected a whole number in 0.."},
           {"date-from = \"2012.13.45\"\n", "rules.toml:1: --date-from"},
           {"max-ply = 30\nmax-ply = 40\n", "rules.toml:2"},
           {"max-ply = \n", "rules.toml:1"},
           {"config = \"other.toml\"\n", "unknown setting 'config'"},
           {"help = true\n", "unknown setting 'help'"},
           {"tag = [[\"a\"]]\n", "rules.toml:1"},
       }) {
    r = build_with(bad.toml);
    EXPECT_EQ(r.exit_code, 2) << bad.toml << r.err;
    EXPECT_NE(r.err.find(bad.expected), std::string::npos) << bad.toml << "gave: " << r.err;
    EXPECT_FALSE(std::filesystem::exists(tmp / "b.bin")) << bad.toml;
  }
  r = run_bookforge({"build", twic_sample().string(), "-o", (tmp / "b.bin").string(), "--config",
                     (tmp / "missing.toml").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("missing.toml"), std::string::npos) << r.err;
}

TEST(CliValues, MistypedSubcommandGetsTheClosestOne) {
  CommandResult r = run_bookforge({"buidl", "games.pgn", "-o", "x.bin"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown command 'buidl' (did you mean 'build'?)"), std::string::npos) << r.err;
  for (const char* name : {"analyse", "build", "db", "pick", "scan", "uci"})
    EXPECT_NE(r.err.find(std::string(" ") + name), std::string::npos) << name << " not listed: " << r.err;
  r = run_bookforge({"db", "ad", "x.pgn", "--db", "t.sqlite"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown command 'db ad' (did you mean 'db add'?)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("add explore game stats"), std::string::npos) << r.err;
  r = run_bookforge({"xyzzy"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown command 'xyzzy'; the commands are:"), std::string::npos) << r.err;
  // A file name where files go is not a subcommand.
  r = run_bookforge({"scan", "no-such-file.pgn", "--progress", "never"});
  EXPECT_EQ(r.err.find("unknown command"), std::string::npos) << r.err;
}

// --memory is what the whole tally takes, however many threads count into it: 64 threads and
// 16M peaked at 97 MB on this 1.7 MB sample (held plies and tables for 128 key ranges), and
// 512 threads at 2.4 GB. The book is the same.
TEST(CliValues, MemoryHoldsWhateverTheThreadCount) {
  TempDir tmp;
  auto build = [&](const std::string& name, std::vector<std::string> extra) {
    std::vector<std::string> args = {"build",
                                     twic_sample().string(),
                                     "-o",
                                     (tmp / name).string(),
                                     "--quiet",
                                     "--max-ply",
                                     "40",
                                     "--report",
                                     (tmp / (name + ".json")).string()};
    args.insert(args.end(), extra.begin(), extra.end());
    CommandResult r = run_bookforge(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return read_file(tmp / name);
  };
  const std::string plain = build("plain.bin", {"--threads", "2"});
  const std::string many = build("many.bin", {"--threads", "64", "--memory", "16M"});
  const std::string most = build("most.bin", {"--threads", "256", "--memory", "16M"});
  ASSERT_GT(plain.size(), 16000u);
  EXPECT_TRUE(plain == many);
  EXPECT_TRUE(plain == most);
  for (const char* name : {"many.bin.json", "most.bin.json"}) {
    std::smatch peak;
    const std::string report = read_file(tmp / name);
    ASSERT_TRUE(std::regex_search(report, peak, std::regex("\"peak_rss_bytes\": ([0-9]+)"))) << report;
    EXPECT_LT(std::stoull(peak[1]), uint64_t(64) << 20) << name;
  }
  CommandResult r =
      run_bookforge({"build", twic_sample().string(), "-o", (tmp / "x.bin").string(), "--threads", "512"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--threads: expected a whole number in 0..256, got '512'"), std::string::npos)
      << r.err;
  r = run_bookforge({"build", twic_sample().string(), "-o", (tmp / "x.bin").string(), "--memory", "1K"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--memory"), std::string::npos) << r.err;
}

TEST(CliValues, BadFenOnTheCommandLineIsUsageError) {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"key", "--fen", "not a fen"},
                                               {"perft", "--fen", "8/8/8/8 w - -", "--depth", "1"},
                                               {"key", "--fen", kStart + " garbage"},
                                               {"key", "--moves", "e4 e5 Nf9"}}) {
    CommandResult r = run_bookforge(args);
    EXPECT_EQ(r.exit_code, 2) << args[0] << " " << args[1] << ": " << r.err;
    EXPECT_NE(r.err.find(args[1]), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
}

TEST(CliValues, FenWithTheLineBreakOfAFileIsAccepted) {
  const std::string expected = run_bookforge({"key", "--fen", kStart}).out;
  ASSERT_EQ(expected, "463b96181691fc9c\n");
  for (const std::string& fen : {kStart + "\n", kStart + "\r\n", "  " + kStart + " \t\n"}) {
    CommandResult r = run_bookforge({"key", "--fen", fen});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, expected);
    r = run_bookforge({"perft", "--fen", fen, "--depth", "2"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("nodes 400"), std::string::npos) << r.out;
  }
}

}  // namespace
}  // namespace bookforge::test
