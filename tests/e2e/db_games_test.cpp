// Top and recent games per position, and `db game` (issue 14, item 3): db add keeps, for each
// position up to --game-plies, the four games with the highest mean rating and the four most
// recent; db explore shows them; db game prints a game's PGN read back from its source file.
#include <filesystem>
#include <string>
#include <vector>

#include "e2e/db_helpers.h"
#include "store/game_record.h"
#include "store/game_text.h"

namespace bookforge::test {
namespace {

namespace fs = std::filesystem;

// A game 1. e4 e5 2. Nf3 Nc6 with the given players, ratings ("" = no tag), date and more tags (a
// Site among them replaces the default one).
std::string game(const std::string& white, const std::string& black, const std::string& white_elo,
                 const std::string& black_elo, const std::string& date, const std::string& extra_tags = "",
                 const std::string& last_move = "Nc6") {
  const std::string site = extra_tags.rfind("[Site ", 0) == 0 ? "" : "[Site \"Somewhere\"]\n";
  std::string text = "[Event \"Test " + white + "\"]\n" + site + "[Date \"" + date + "\"]\n[White \"" +
                     white + "\"]\n[Black \"" + black + "\"]\n[Result \"1-0\"]\n";
  if (!white_elo.empty()) text += "[WhiteElo \"" + white_elo + "\"]\n";
  if (!black_elo.empty()) text += "[BlackElo \"" + black_elo + "\"]\n";
  return text + extra_tags + "\n1. e4 e5 2. Nf3 " + last_move + " 1-0\n\n";
}

// Seven games: ratings and dates chosen so that the top four and the recent four differ.
std::vector<std::string> seven_games() {
  return {game("A", "a", "2700", "2700", "2001.01.01"),  // top 1, oldest
          game("B", "b", "2600", "2600", "2002.01.01"),  // top 2
          game("C", "c", "2500", "2500", "2020.05.01", "[Site \"https://example.org/c\"]\n"),
          game("D", "d", "2400", "2400", "2021.01.??"),  // top 4, recent 3
          game("E", "e", "1500", "1500", "2022.03.04", "[LichessURL \"https://lichess.org/abcdefgh\"]\n"),
          game("F", "f", "2900", "", "2023.01.01"),  // one rating missing: ranks last
          game("G", "g", "1200", "1300", "2019.12.31")};
}

CommandResult explore_json(const fs::path& db, const std::string& moves) {
  return run_bookforge({"db", "explore", "--db", db.string(), "--moves", moves, "--json"});
}

// The values of `field` in the objects of the JSON list `list` ("top_games" ...), in order.
std::vector<std::string> list_field(const std::string& json, const std::string& list,
                                    const std::string& field) {
  std::vector<std::string> out;
  const size_t begin = json.find("\"" + list + "\":[");
  if (begin == std::string::npos) return {"no " + list};
  const size_t end = json.find(']', begin);
  const std::string label = "\"" + field + "\":";
  for (size_t at = json.find(label, begin); at != std::string::npos && at < end;
       at = json.find(label, at + 1)) {
    size_t from = at + label.size(), to = from;
    if (json[from] == '"')
      to = json.find('"', ++from);
    else
      while (to < json.size() && json[to] != ',' && json[to] != '}') ++to;
    out.push_back(json.substr(from, to - from));
  }
  return out;
}

using Names = std::vector<std::string>;

TEST(DbGames, ExploreShowsTheTopRatedAndTheMostRecentGames) {
  TempDir dir;
  std::string pgn;
  for (const std::string& g : seven_games()) pgn += g;
  write_file(dir / "games.pgn", pgn);
  const fs::path db = dir / "t.sqlite";
  ASSERT_EQ(db_add_files(db, {(dir / "games.pgn").string()}).exit_code, 0);
  for (const std::string moves : {"", "e4", "e4 e5 Nf3"}) {
    CommandResult r = explore_json(db, moves);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(list_field(r.out, "top_games", "white"), (Names{"A", "B", "C", "D"})) << moves << r.out;
    EXPECT_EQ(list_field(r.out, "recent_games", "white"), (Names{"F", "E", "D", "C"})) << moves << r.out;
  }
  CommandResult r = explore_json(db, "e4 e5 Nf3");
  EXPECT_EQ(list_field(r.out, "top_games", "white_elo"), (Names{"2700", "2600", "2500", "2400"}));
  EXPECT_EQ(list_field(r.out, "recent_games", "date"),
            (Names{"2023.01.01", "2022.03.04", "2021.01.??", "2020.05.01"}));
  EXPECT_EQ(list_field(r.out, "recent_games", "url"),
            (Names{"null", "https://lichess.org/abcdefgh", "null", "https://example.org/c"}));
  EXPECT_EQ(list_field(r.out, "recent_games", "black_elo"), (Names{"null", "1500", "2400", "2500"}));
  EXPECT_EQ(list_field(r.out, "top_games", "number"), (Names{"1", "2", "3", "4"}));
  EXPECT_EQ(list_field(r.out, "top_games", "result"), (Names{"1-0", "1-0", "1-0", "1-0"}));
  EXPECT_EQ(list_field(r.out, "top_games", "event"), (Names{"Test A", "Test B", "Test C", "Test D"}));
  // The position after the last move counted is not kept (no move was played from it).
  CommandResult after = explore_json(db, "e4 e5 Nf3 Nc6");
  EXPECT_EQ(list_field(after.out, "top_games", "white"), Names{});

  // The table lists them under the moves, with their ids.
  CommandResult text = run_bookforge({"db", "explore", "--db", db.string(), "--moves", "e4"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("top games"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("A (2700) - a (2700)  2001.01.01  Test A"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("E (1500) - e (1500)  2022.03.04  https://lichess.org/abcdefgh"), std::string::npos)
      << text.out;
}

TEST(DbGames, DbGamePrintsTheGameFromItsSourceAndRefusesAChangedFile) {
  TempDir dir;
  const std::vector<std::string> games = seven_games();
  std::string pgn;
  for (const std::string& g : games) pgn += g;
  write_file(dir / "games.pgn", pgn);
  ASSERT_EQ(run_program({"zstd", "-q", "-k", (dir / "games.pgn").string()}).exit_code, 0);
  const fs::path db = dir / "t.sqlite";
  ASSERT_EQ(db_add_files(db, {(dir / "games.pgn.zst").string()}).exit_code, 0);
  const std::vector<std::string> ids = list_field(explore_json(db, "e4").out, "recent_games", "id");
  ASSERT_EQ(ids.size(), 4u);
  // F is the sixth game of the file.
  CommandResult shown = run_bookforge({"db", "game", ids[0], "--db", db.string()});
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_EQ(shown.out, games[5].substr(0, games[5].size() - 1));

  // The explorer API's 8-character id finds the same game.
  const std::optional<uint64_t> fingerprint = store::parse_game_id(ids[0]);
  ASSERT_TRUE(fingerprint);
  CommandResult by_short_id =
      run_bookforge({"db", "game", store::short_game_id(*fingerprint), "--db", db.string()});
  ASSERT_EQ(by_short_id.exit_code, 0) << by_short_id.err;
  EXPECT_EQ(by_short_id.out, shown.out);

  CommandResult bad_id = run_bookforge({"db", "game", "xyz", "--db", db.string()});
  EXPECT_EQ(bad_id.exit_code, 2);
  EXPECT_NE(bad_id.err.find("not a game id"), std::string::npos) << bad_id.err;
  CommandResult unknown = run_bookforge({"db", "game", "0123456789abcdef", "--db", db.string()});
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.err.find("no game 0123456789abcdef"), std::string::npos) << unknown.err;

  // The game is found by its byte offset: games appended to the file since change nothing.
  write_file(dir / "games.pgn", pgn + games[6]);
  fs::remove(dir / "games.pgn.zst");
  ASSERT_EQ(run_program({"zstd", "-q", "-k", (dir / "games.pgn").string()}).exit_code, 0);
  CommandResult appended = run_bookforge({"db", "game", ids[0], "--db", db.string()});
  EXPECT_EQ(appended.exit_code, 0) << appended.err;
  EXPECT_EQ(appended.out, shown.out);

  // A game put in front moves every other one: refused, not another game's text.
  write_file(dir / "games.pgn", games[6] + pgn);
  fs::remove(dir / "games.pgn.zst");
  ASSERT_EQ(run_program({"zstd", "-q", "-k", (dir / "games.pgn").string()}).exit_code, 0);
  CommandResult changed = run_bookforge({"db", "game", ids[0], "--db", db.string()});
  EXPECT_EQ(changed.exit_code, 1);
  EXPECT_NE(changed.err.find("games.pgn.zst: another game lies where the game was (game 6, at byte "),
            std::string::npos)
      << changed.err;
  EXPECT_NE(changed.err.find("the file changed since it was added"), std::string::npos) << changed.err;
  EXPECT_EQ(changed.out, "");
  fs::remove(dir / "games.pgn.zst");
  CommandResult moved = run_bookforge({"db", "game", ids[0], "--db", db.string()});
  EXPECT_EQ(moved.exit_code, 1);
  EXPECT_NE(moved.err.find("games.pgn.zst: no such file"), std::string::npos) << moved.err;
}

TEST(DbGames, ListsAreTheSameAddedAtOnceOrFileByFileWithAnyThreads) {
  TempDir dir;
  const std::string twic = sample("twic0920-2000.pgn").string(),
                    lichess = sample("lichess-2016-05-1000.pgn").string();
  const fs::path one_by_one = dir / "one.sqlite", together = dir / "together.sqlite",
                 three = dir / "three.sqlite";
  ASSERT_EQ(db_add_files(one_by_one, {twic}).exit_code, 0);
  ASSERT_EQ(db_add_files(one_by_one, {lichess}).exit_code, 0);
  ASSERT_EQ(db_add_files(together, {twic, lichess}, {"--threads", "1"}).exit_code, 0);
  ASSERT_EQ(db_add_files(three, {twic, lichess}, {"--threads", "3"}).exit_code, 0);
  const std::string lists = "SELECT * FROM position_games ORDER BY key, fingerprint";
  const std::string all = sql_rows(together, lists);
  EXPECT_GT(std::count(all.begin(), all.end(), '\n'), 10000);
  // (Compared as booleans: a failure's diff of the whole table would take minutes.)
  EXPECT_TRUE(sql_rows(one_by_one, lists) == all);
  EXPECT_TRUE(sql_rows(three, lists) == all);
  // No position keeps more than its four top and four recent games.
  EXPECT_EQ(sql_rows(together, "SELECT max(n) FROM (SELECT count(*) n FROM position_games GROUP BY key)"),
            "8\n");
  // By default the positions of the first 12 plies keep their games.
  EXPECT_EQ(sql_rows(together, "SELECT value FROM meta WHERE name = 'game_plies'"), "12\n");
}

TEST(DbGames, AGameIsFoundAtItsByteOffsetInPlainAndCompressedFiles) {
  TempDir dir;
  // The offsets of a plain file are where each game's text starts; db game reads them back.
  const std::string twic = read_file(sample("twic0920-2000.pgn"));
  write_file(dir / "t.pgn", twic);
  ASSERT_EQ(run_program({"gzip", "-k", (dir / "t.pgn").string()}).exit_code, 0);
  for (const char* name : {"t.pgn", "t.pgn.gz"}) {
    const fs::path db = dir / (std::string(name) + ".sqlite");
    ASSERT_EQ(db_add_files(db, {(dir / name).string()}).exit_code, 0);
    const std::string rows = sql_rows(
        db, "SELECT printf('%016x', fingerprint), offset FROM games ORDER BY number LIMIT 3 OFFSET 1500");
    int checked = 0;
    for (size_t at = 0; at < rows.size(); at = rows.find('\n', at) + 1) {
      const std::string id = rows.substr(at, 16);
      const uint64_t offset = std::stoull(rows.substr(at + 17, rows.find('\n', at) - at - 17));
      EXPECT_EQ(twic.compare(offset, 7, "[Event "), 0) << name << " " << offset;
      CommandResult shown = run_bookforge({"db", "game", id, "--db", db.string()});
      ASSERT_EQ(shown.exit_code, 0) << shown.err;
      EXPECT_EQ(twic.compare(offset, shown.out.size(), shown.out), 0) << name << " " << id;
      ++checked;
    }
    EXPECT_EQ(checked, 3);
    // db explore --json gives each listed game's offset too.
    const std::vector<std::string> offsets = list_field(explore_json(db, "d4").out, "top_games", "offset");
    ASSERT_EQ(offsets.size(), 4u);
    for (const std::string& offset : offsets) EXPECT_EQ(twic.compare(std::stoull(offset), 7, "[Event "), 0);
  }
}

TEST(DbGames, ACopiedGameKeepsTheRecordOfItsFirstCopyWithAnyThreads) {
  TempDir dir;
  // Every game twice in one file: its record must name the first copy (number <= 2000), not
  // whichever copy a worker happened to read first.
  const std::string twic = read_file(sample("twic0920-2000.pgn"));
  write_file(dir / "twice.pgn", twic + twic);
  const std::string records =
      "SELECT fingerprint, source, number, white, event FROM games ORDER BY fingerprint";
  std::string first;
  for (const char* threads : {"1", "3", "3"}) {
    const fs::path db = dir / (std::string("t") + threads + ".sqlite");
    fs::remove(db);
    ASSERT_EQ(db_add_files(db, {(dir / "twice.pgn").string()}, {"--threads", threads}).exit_code, 0);
    EXPECT_EQ(sql_rows(db, "SELECT count(*), max(number) FROM games"), "2000|2000\n");
    const std::string rows = sql_rows(db, records);
    if (first.empty()) first = rows;
    EXPECT_TRUE(rows == first) << "threads " << threads;
  }
}

TEST(DbGames, GamePliesBoundsThePositionsAndStaysTheStores) {
  TempDir dir;
  std::string pgn;
  for (const std::string& g : seven_games()) pgn += g;
  write_file(dir / "games.pgn", pgn);
  const fs::path db = dir / "t.sqlite";
  ASSERT_EQ(db_add_files(db, {(dir / "games.pgn").string()}, {"--game-plies", "2"}).exit_code, 0);
  EXPECT_EQ(list_field(explore_json(db, "e4").out, "top_games", "white"), (Names{"A", "B", "C", "D"}));
  EXPECT_EQ(list_field(explore_json(db, "e4 e5").out, "top_games", "white"), Names{});
  CommandResult other = db_add_files(db, {sample("twic0920-2000.pgn").string()}, {"--game-plies", "30"});
  EXPECT_EQ(other.exit_code, 1);
  EXPECT_NE(other.err.find("up to ply 2"), std::string::npos) << other.err;
  ASSERT_EQ(db_add_files(db, {sample("twic0920-2000.pgn").string()}).exit_code, 0);
  EXPECT_EQ(sql_rows(db, "SELECT value FROM meta WHERE name = 'game_plies'"), "2\n");
}

}  // namespace
}  // namespace bookforge::test
