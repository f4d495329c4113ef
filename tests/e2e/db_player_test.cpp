// The player explorer (store/player_explore.h) against an independent count: the test picks a
// player's games out of the samples with its own reading of the White and Black tags, adds only
// those to a store of their own, and `db explore` of that store must answer as `db explore
// --player` of the store holding every game, position by position, with slice filters.
#include <nlohmann/json.hpp>

#include <regex>
#include <sstream>

#include "chess/board.h"
#include "chess/san.h"
#include "e2e/book_fixtures.h"
#include "e2e/db_helpers.h"

namespace bookforge::test {
namespace {

namespace fs = std::filesystem;

// The games of `text` whose `side` tag ("White" or "Black") is `name` exactly.
std::string games_of(const std::string& text, const std::string& side, const std::string& name) {
  std::string out, game;
  bool keep = false;
  const std::regex tag(R"re(^\[(\w+)\s+"(.*)"\]\s*$)re");
  std::istringstream in(text);
  bool in_moves = false;
  auto flush = [&] {
    if (keep) out += game + "\n";
    game.clear();
    keep = false;
    in_moves = false;
  };
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    const bool is_tag = std::regex_match(line, m, tag);
    if (is_tag && in_moves) flush();
    if (is_tag && m[1] == side && m[2] == name) keep = true;
    if (!is_tag && !line.empty()) in_moves = true;
    game += line + "\n";
  }
  flush();
  return out;
}

nlohmann::json explore(const std::vector<std::string>& args) {
  CommandResult r = run_bookforge(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json();
}

class DbPlayer : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    all_ = dir_->path() / "all.sqlite";
    ASSERT_EQ(db_add_files(
                  all_, {sample("lichess-2016-05-1000.pgn").string(), sample("twic0920-2000.pgn").string()})
                  .exit_code,
              0);
  }
  static void TearDownTestSuite() { delete dir_; }

  // Every position of `lines` (and one move deeper, by each of the first moves there) compared.
  void check(const std::string& name, bool white, const std::vector<std::string>& filter) {
    const std::string side = white ? "White" : "Black";
    std::string picked;
    for (const char* file : {"lichess-2016-05-1000.pgn", "twic0920-2000.pgn"})
      picked += games_of(read_file(sample(file)), side, name);
    ASSERT_FALSE(picked.empty()) << name;
    const fs::path pgn = dir_->path() / ("picked-" + side + ".pgn");
    write_file(pgn, picked);
    const fs::path own = dir_->path() / ("own-" + name + "-" + side + ".sqlite");
    fs::remove(own);
    ASSERT_EQ(db_add_files(own, {pgn.string()}).exit_code, 0);

    std::vector<std::string> lines{""};
    for (size_t depth = 0; depth < 3; ++depth) {
      std::vector<std::string> next;
      for (const std::string& line : lines) {
        SCOPED_TRACE(name + " as " + side + " after '" + line + "'");
        std::vector<std::string> common{"--json", "--moves", line};
        common.insert(common.end(), filter.begin(), filter.end());
        std::vector<std::string> expected_args{"db", "explore", "--db", own.string()};
        expected_args.insert(expected_args.end(), common.begin(), common.end());
        std::vector<std::string> player_args{"db",       "explore", "--db",    all_.string(),
                                             "--player", name,      "--color", white ? "white" : "black"};
        player_args.insert(player_args.end(), common.begin(), common.end());
        const nlohmann::json expected = explore(expected_args), got = explore(player_args);
        ASSERT_EQ(got["games"], expected["games"]);
        ASSERT_EQ(got["moves"].size(), expected["moves"].size());
        for (size_t i = 0; i < got["moves"].size(); ++i) {
          const nlohmann::json &g = got["moves"][i], &e = expected["moves"][i];
          EXPECT_EQ(g["uci"], e["uci"]);
          EXPECT_EQ(g["games"], e["games"]);
          const double decided =
              g["white"].get<double>() + g["draws"].get<double>() + g["black"].get<double>();
          if (decided > 0) {
            EXPECT_NEAR(100.0 * g["white"].get<double>() / decided, e["white"].get<double>(), 0.006);
            EXPECT_NEAR(100.0 * g["black"].get<double>() / decided, e["black"].get<double>(), 0.006);
          }
          if (i < 2)
            next.push_back(line.empty() ? g["san"].get<std::string>()
                                        : line + " " + g["san"].get<std::string>());
        }
      }
      lines = next;
    }
  }

  static TempDir* dir_;
  static fs::path all_;
};

TempDir* DbPlayer::dir_ = nullptr;
fs::path DbPlayer::all_;

TEST_F(DbPlayer, EachColourEqualsAStoreOfThePlayersGamesAlone) {
  check("german11", true, {});
  check("german11", false, {});
  check("Podolchenko,E", true, {});
  check("Podolchenko,E", false, {});
}

TEST_F(DbPlayer, SliceFiltersApplyAsToTheWholeTree) {
  check("german11", true, {"--speeds", "bullet"});
  check("german11", false, {"--since", "2016-05", "--until", "2016-05", "--ratings", "1200,1400"});
}

TEST_F(DbPlayer, NamesIgnoreAsciiCaseOnlyAndUnknownPlayersHaveNoGames) {
  const nlohmann::json lower =
      explore({"db", "explore", "--db", all_.string(), "--player", "german11", "--color", "black", "--json"});
  const nlohmann::json upper =
      explore({"db", "explore", "--db", all_.string(), "--player", "GERMAN11", "--color", "black", "--json"});
  EXPECT_GT(lower["games"].get<uint64_t>(), 100u);
  EXPECT_EQ(lower["moves"], upper["moves"]);
  const nlohmann::json spaced = explore(
      {"db", "explore", "--db", all_.string(), "--player", "german 11", "--color", "black", "--json"});
  EXPECT_EQ(spaced["player_games"], 0);
  EXPECT_TRUE(spaced["moves"].empty());
  CommandResult no_color = run_bookforge({"db", "explore", "--db", all_.string(), "--player", "german11"});
  EXPECT_EQ(no_color.exit_code, 2) << no_color.err;
}

TEST(DbPlayerModes, RatedAndCasualComeFromLichessEventTag) {
  TempDir dir;
  std::string pgn;
  const char* events[] = {"Rated Blitz game", "Rated Blitz game", "Casual Blitz game", "Some Open"};
  const char* moves[] = {"1. e4 e5 1-0", "1. e4 c5 0-1", "1. d4 d5 1/2-1/2", "1. c4 e5 1-0"};
  for (int i = 0; i < 4; ++i)
    pgn += std::string("[Event \"") + events[i] + "\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"" +
           (i == 1   ? "0-1"
            : i == 2 ? "1/2-1/2"
                     : "1-0") +
           "\"]\n\n" + moves[i] + "\n\n";
  write_file(dir.path() / "m.pgn", pgn);
  const fs::path db = dir.path() / "m.sqlite";
  ASSERT_EQ(db_add_files(db, {(dir.path() / "m.pgn").string()}).exit_code, 0);
  auto games = [&](const std::vector<std::string>& more) {
    std::vector<std::string> args{"db",  "explore", "--db",  db.string(), "--player",
                                  "ann", "--color", "white", "--json"};
    args.insert(args.end(), more.begin(), more.end());
    return explore(args)["games"].get<uint64_t>();
  };
  EXPECT_EQ(games({}), 4u);
  EXPECT_EQ(games({"--modes", "rated"}), 2u);
  EXPECT_EQ(games({"--modes", "casual"}), 1u);
  EXPECT_EQ(games({"--modes", "rated,casual"}), 3u);
  CommandResult bad = run_bookforge(
      {"db", "explore", "--db", db.string(), "--player", "Ann", "--color", "white", "--modes", "fun"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("'fun' is not a mode"), std::string::npos) << bad.err;
  // A move one game played names it, as lichess's `game` does.
  const nlohmann::json after_d4 = explore({"db", "explore", "--db", db.string(), "--player", "Ann", "--color",
                                           "white", "--moves", "d4", "--json"});
  ASSERT_EQ(after_d4["moves"].size(), 1u);
  EXPECT_TRUE(after_d4["moves"][0]["game"].is_string());
  EXPECT_EQ(after_d4["recent_games"][0]["move"], "d7d5");
}

// A store made before the player explorer (schema version 4) is refused by it until an add brings
// it up to version 5; the games it held then are counted apart, and the new ones are walked.
TEST(DbPlayerOldStores, AnAddBringsAVersion4StoreUpAndSaysWhatItCannotSee) {
  TempDir dir;
  const fs::path db = dir.path() / "old.sqlite";
  ASSERT_EQ(db_add_files(db, {sample("lichess-2016-05-1000.pgn").string()}).exit_code, 0);
  for (const char* sql :
       {"DROP TABLE player_games", "ALTER TABLE games DROP COLUMN mode",
        "ALTER TABLE games DROP COLUMN slice", "DELETE FROM meta WHERE name = 'games_without_moves'",
        "UPDATE meta SET value = '4' WHERE name = 'schema_version'"})
    ASSERT_EQ(sql_rows(db, sql), "") << sql;
  CommandResult refused =
      run_bookforge({"db", "explore", "--db", db.string(), "--player", "german11", "--color", "white"});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("made before the player explorer"), std::string::npos) << refused.err;
  // The other queries read it as before.
  EXPECT_EQ(run_bookforge({"db", "explore", "--db", db.string(), "--moves", "e4"}).exit_code, 0);

  ASSERT_EQ(db_add_files(db, {sample("twic0920-2000.pgn").string()}).exit_code, 0);
  EXPECT_EQ(
      sql_rows(
          db, "SELECT value FROM meta WHERE name IN ('schema_version', 'games_without_moves') ORDER BY name"),
      "1000\n5\n");
  const nlohmann::json old_player =
      explore({"db", "explore", "--db", db.string(), "--player", "german11", "--color", "white", "--json"});
  EXPECT_EQ(old_player["games"], 0);
  EXPECT_EQ(old_player["games_without_moves"], 1000);
  const nlohmann::json new_player = explore(
      {"db", "explore", "--db", db.string(), "--player", "Podolchenko,E", "--color", "white", "--json"});
  EXPECT_GT(new_player["games"].get<uint64_t>(), 0u);
}

}  // namespace
}  // namespace bookforge::test
