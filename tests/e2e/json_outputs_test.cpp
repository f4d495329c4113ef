// Every JSON output of the binary, on text that JSON must escape: a PGN file (and a book and a
// store) whose names hold a control character, a tab, a double quote, a backslash and a byte
// that is not UTF-8, as do its players, its event and a comment. Each `--json` output (and
// build's --report) is parsed back by a real JSON parser and the names must come back byte for
// byte (a byte that is not UTF-8 read as Latin-1, as PGN text is: pgn/tag_value.h); so must the
// server's, on the same store and book.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "pgn/tag_value.h"
#include "serve/curl_client.h"
#include "serve/serve_process.h"
#include "support/test_support.h"

namespace bookforge::test {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// What JSON must escape: a control character (U+0001), a tab, a double quote, a backslash; and
// what it cannot hold as such: a Latin-1 byte (e acute).
const std::string kAwkward = std::string("\x01") + "\t\"q\"\\\xe9";
const std::string kWhite = "White" + kAwkward + "Player";
const std::string kBlack = "Black" + kAwkward + "Player";
const std::string kEvent = "Event" + kAwkward + "Cup";

// How JSON shows raw text: as UTF-8, a byte that is not UTF-8 read as Latin-1.
std::string shown(const std::string& raw) { return pgn::to_utf8(raw); }
std::string shown(const fs::path& path) { return shown(path.string()); }

// A PGN tag value: the quote and the backslash escaped as PGN wants them.
std::string tag_value(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// Three games of 1.e4 e5 2.Nf3 Nc6 (so that a book keeps them) and one bad game whose illegal
// move is quoted in the read report.
std::string awkward_pgn() {
  std::string pgn;
  for (int i = 0; i < 3; ++i)
    pgn += "[Event \"" + tag_value(kEvent) + "\"]\n[Site \"?\"]\n[Date \"2024.01.0" + std::to_string(i + 1) +
           "\"]\n[Round \"" + std::to_string(i + 1) + "\"]\n[White \"" + tag_value(kWhite) +
           "\"]\n[Black \"" + tag_value(kBlack) + "\"]\n[WhiteElo \"2400\"]\n[BlackElo \"230" +
           std::to_string(i) + "\"]\n[Result \"1-0\"]\n\n1. e4 {a comment" + kAwkward +
           "} e5 2. Nf3 Nc6 1-0\n\n";
  pgn += "[Event \"bad\"]\n[White \"x\"]\n[Black \"y\"]\n[Result \"*\"]\n\n1. e4 Qx9\x01\\\xe9 *\n";
  return pgn;
}

// The output parsed as JSON; the calling test fails when it is not JSON.
Json parsed(const std::string& text, const std::string& what) {
  Json json = Json::parse(text, nullptr, false);
  EXPECT_FALSE(json.is_discarded()) << what << " is not JSON:\n" << text;
  return json;
}

Json run_json(const std::vector<std::string>& args) {
  CommandResult r = run_bookforge(args);
  EXPECT_EQ(r.exit_code, 0) << args[0] << ": " << r.err;
  return parsed(r.out, args[0]);
}

// The subcommands listed in a --help text ("  name, alias   description" lines).
std::vector<std::string> subcommands(const std::string& help) {
  std::vector<std::string> names;
  std::istringstream in(help.substr(std::min(help.find("Subcommands:"), help.size())));
  for (std::string line; std::getline(in, line);)
    if (line.size() > 2 && line.starts_with("  ") && line[2] != ' ')
      names.push_back(line.substr(2, line.find_first_of(", ", 2) - 2));
  return names;
}

// Every command whose --help offers JSON (a --json flag, a JSON --format or a JSON --report).
std::set<std::string> commands_with_json() {
  std::set<std::string> found;
  std::vector<std::vector<std::string>> pending;
  for (const std::string& name : subcommands(run_bookforge({"--help"}).out)) pending.push_back({name});
  while (!pending.empty()) {
    std::vector<std::string> command = pending.back();
    pending.pop_back();
    std::vector<std::string> args = command;
    args.push_back("--help");
    std::string help = run_bookforge(args).out;
    std::string joined;
    for (const std::string& word : command) joined += (joined.empty() ? "" : " ") + word;
    const std::vector<std::string> deeper_names = subcommands(help);
    std::transform(help.begin(), help.end(), help.begin(), [](unsigned char c) { return std::tolower(c); });
    if (help.find("json") != std::string::npos) found.insert(joined);
    for (const std::string& sub : deeper_names) {
      std::vector<std::string> deeper = command;
      deeper.push_back(sub);
      pending.push_back(deeper);
    }
  }
  return found;
}

class JsonOutputs : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    write_file(pgn(), awkward_pgn());
    CommandResult built = run_bookforge({"build", pgn().string(), "-o", book().string(), "--min-move-games",
                                         "1", "--report", report().string(), "--progress", "never"});
    ASSERT_EQ(built.exit_code, 0) << built.err;
    CommandResult added =
        run_bookforge({"db", "add", "--db", store().string(), pgn().string(), "--progress", "never"});
    ASSERT_EQ(added.exit_code, 0) << added.err;
  }
  static void TearDownTestSuite() { delete dir_; }
  // File names that need escaping too.
  static fs::path pgn() { return *dir_ / ("games" + kAwkward + ".pgn"); }
  static fs::path book() { return *dir_ / ("book" + kAwkward + ".bin"); }
  static fs::path report() { return *dir_ / ("report" + kAwkward + ".json"); }
  static fs::path store() { return *dir_ / ("tree" + kAwkward + ".sqlite"); }

  // The top game of the store after 1.e4 as the CLI shows it.
  static void expect_names_in_cli_game(const Json& game) {
    EXPECT_EQ(game["white"], shown(kWhite));
    EXPECT_EQ(game["black"], shown(kBlack));
    EXPECT_EQ(game["event"], shown(kEvent));
  }
  // ... and as the server does (lichess's shape).
  static void expect_names_in_served_game(const Json& game) {
    EXPECT_EQ(game["white"]["name"], shown(kWhite));
    EXPECT_EQ(game["black"]["name"], shown(kBlack));
    EXPECT_EQ(game["bookforge"]["event"], shown(kEvent));
  }

  static TempDir* dir_;
};
TempDir* JsonOutputs::dir_ = nullptr;

TEST_F(JsonOutputs, EveryJsonOutputIsCoveredHere) {
  // A new JSON output fails this until the tests below read it back too.
  EXPECT_EQ(commands_with_json(), (std::set<std::string>{"analyse", "build", "db explore", "db novelty",
                                                         "db stats", "dump", "info", "probe", "scan"}));
}

TEST_F(JsonOutputs, ScanReportQuotesTheFileAndTheBadMove) {
  const Json scan = run_json({"scan", pgn().string(), "--json", "--progress", "never"});
  EXPECT_EQ(scan["games"], 4);
  EXPECT_EQ(scan["bad"], 1);
  ASSERT_EQ(scan["bad_examples"].size(), 1u);
  EXPECT_EQ(scan["bad_examples"][0]["file"], shown(pgn()));
  EXPECT_NE(scan["bad_examples"][0]["detail"].get<std::string>().find(shown(std::string("Qx9\x01\\\xe9"))),
            std::string::npos)
      << scan["bad_examples"][0]["detail"];
}

TEST_F(JsonOutputs, BuildReportNamesItsFiles) {
  const Json report = parsed(read_file(JsonOutputs::report()), "build --report");
  EXPECT_EQ(report["output"], shown(book()));
  EXPECT_EQ(report["inputs"], Json::array({shown(pgn())}));
  EXPECT_EQ(report["games"]["accepted"], 3);
  EXPECT_EQ(report["games"]["bad_examples"][0]["file"], shown(pgn()));
  EXPECT_GT(report["entries"].get<int>(), 0);
}

TEST_F(JsonOutputs, DbExploreAndStatsGiveTheNamesBack) {
  const Json explored = run_json({"db", "explore", "--db", store().string(), "--moves", "e4", "--json"});
  ASSERT_EQ(explored["top_games"].size(), 3u) << explored.dump();
  for (const Json& game : explored["top_games"]) expect_names_in_cli_game(game);
  ASSERT_EQ(explored["recent_games"].size(), 3u);
  expect_names_in_cli_game(explored["recent_games"][0]);
  const Json stats = run_json({"db", "stats", "--db", store().string(), "--json"});
  ASSERT_EQ(stats["sources"].size(), 1u);
  EXPECT_EQ(stats["sources"][0]["name"], shown(pgn()));
}

TEST_F(JsonOutputs, DbNoveltyGivesTheNamesBack) {
  // The store's own games, walked through it: with --min-games 4 each leaves at 1.e4, which the
  // store's three games played, and those are the start position's top games.
  const Json walked =
      run_json({"db", "novelty", "--db", store().string(), pgn().string(), "--min-games", "4", "--json"});
  ASSERT_EQ(walked["games"].size(), 3u) << walked.dump();
  const Json& game = walked["games"][0];
  EXPECT_EQ(game["file"], shown(pgn()));
  expect_names_in_cli_game(game);
  ASSERT_EQ(game["top_games"].size(), 3u) << game.dump();
  expect_names_in_cli_game(game["top_games"][0]);
  ASSERT_EQ(walked["bad_games"].size(), 1u);
  EXPECT_EQ(walked["bad_games"][0]["file"], shown(pgn()));
}

TEST_F(JsonOutputs, BookQueriesNameTheBook) {
  const Json info = run_json({"info", book().string(), "--json"});
  EXPECT_EQ(info["file"], shown(book()));
  EXPECT_EQ(info["valid"], true);
  const Json probe = run_json({"probe", book().string(), "--json"});
  ASSERT_FALSE(probe["moves"].empty());
  EXPECT_EQ(probe["moves"][0]["san"], "e4");
  const Json dump = run_json({"dump", book().string(), "--format", "json"});
  ASSERT_FALSE(dump["positions"].empty());
  EXPECT_EQ(dump["positions"][0]["moves"][0]["uci"], "e2e4");
}

TEST_F(JsonOutputs, AnalyseOfTheGamesPosition) {
  const Json analysis = run_json({"analyse", "--moves", "e4 e5 Nf3 Nc6", "--depth", "3", "--json"});
  EXPECT_EQ(analysis["side_to_move"], "white");
  EXPECT_FALSE(analysis["lines"].empty());
}

TEST_F(JsonOutputs, TheServerGivesTheSameNames) {
  ServeProcess server({"--db", store().string(), "--book", book().string()});
  ASSERT_FALSE(server.url().empty()) << "the server did not start";
  for (const char* path : {"masters", "lichess", "api/explorer"}) {
    SCOPED_TRACE(path);
    const Json answer = parse_json(curl_get(server.url() + path + "?play=e2e4"));
    ASSERT_EQ(answer["topGames"].size(), 3u) << answer.dump();
    for (const Json& game : answer["topGames"]) expect_names_in_served_game(game);
  }
  const Json books = parse_json(curl_get(server.url() + "api/books"));
  EXPECT_EQ(books["books"][0]["name"], shown(book().filename()));
  const Json info = parse_json(curl_get(server.url() + "api/info"));
  EXPECT_EQ(info["store"]["path"], shown(store()));
}

}  // namespace
}  // namespace bookforge::test
