// `bookforge serve` end to end: the real binary on a store made by `db add` and a book made by
// `build`, asked by HTTP clients nobody here wrote (curl, Python's http.client and urllib). The
// explorer's numbers must equal `db explore --json`, the books' `probe --json`; bad and hostile
// requests get JSON errors and the server goes on; Ctrl-C ends it with 0 and no file left.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "serve/curl_client.h"
#include "serve/embedded_web_files.h"
#include "serve/serve_process.h"
#include "store/game_record.h"
#include "store/game_text.h"
#include "support/test_support.h"

namespace bookforge::test {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

std::string fixed2(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

fs::path checks_script() { return source_dir() / "tests" / "serve" / "http_checks.py"; }

class ServeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    const std::string pgn = (source_dir() / "data-samples" / "twic0920-2000.pgn").string();
    CommandResult added = run_bookforge({"db", "add", "--db", store().string(), pgn});
    ASSERT_EQ(added.exit_code, 0) << added.err;
    CommandResult built = run_bookforge({"build", pgn, "-o", book().string()});
    ASSERT_EQ(built.exit_code, 0) << built.err;
    server_ = new ServeProcess({"--db", store().string(), "--book", book().string()});
  }
  static void TearDownTestSuite() {
    delete server_;
    delete dir_;
  }
  static fs::path store() { return *dir_ / "tree.sqlite"; }
  static fs::path book() { return *dir_ / "book.bin"; }
  static std::string url(const std::string& path_and_query) {
    const std::string& base = server_->url();
    return base.substr(0, base.size() - 1) + path_and_query;
  }
  void SetUp() override { ASSERT_FALSE(server_->url().empty()) << "the server did not start"; }
  // `db explore --json` of the store at the position a `play` line (UCI, comma-separated) reaches.
  static Json db_explore(const std::string& play) {
    std::string moves = play;
    std::replace(moves.begin(), moves.end(), ',', ' ');
    CommandResult explored =
        run_bookforge({"db", "explore", "--db", store().string(), "--moves", moves, "--json"});
    EXPECT_EQ(explored.exit_code, 0) << explored.err;
    return Json::parse(explored.out);
  }
  static void expect_alive() {
    HttpAnswer info = curl_get(url("/api/info"));
    EXPECT_EQ(info.status, 200) << info.body;
  }

  static inline TempDir* dir_ = nullptr;
  static inline ServeProcess* server_ = nullptr;
};

TEST_F(ServeTest, ExplorerNumbersEqualDbExplore) {
  for (const std::string play : {"", "e2e4", "e2e4,c7c5"}) {
    SCOPED_TRACE("play=" + play);
    const Json served = parse_json(curl_get(url("/api/explorer?moves=1000&play=" + play)));
    const Json expected = db_explore(play);

    EXPECT_EQ(served["bookforge"]["key"], expected["key"]);
    EXPECT_EQ(served["bookforge"]["games"], expected["games"]);
    ASSERT_EQ(served["moves"].size(), expected["moves"].size());
    ASSERT_FALSE(expected["moves"].empty());
    uint64_t white = 0, draws = 0, black = 0;
    for (size_t i = 0; i < expected["moves"].size(); ++i) {
      const Json& got = served["moves"][i];
      const Json& want = expected["moves"][i];
      SCOPED_TRACE(want["uci"].get<std::string>());
      EXPECT_EQ(got["uci"], want["uci"]);
      EXPECT_EQ(got["san"], want["san"]);
      const uint64_t w = got["white"], d = got["draws"], b = got["black"];
      white += w, draws += d, black += b;
      const double decided = double(w + d + b);
      EXPECT_LE(w + d + b, want["games"].get<uint64_t>());
      // db explore prints percentages with two decimals; the server the counts behind them.
      EXPECT_EQ(fixed2(100.0 * w / decided), fixed2(want["white"].get<double>()));
      EXPECT_EQ(fixed2(100.0 * d / decided), fixed2(want["draws"].get<double>()));
      EXPECT_EQ(fixed2(100.0 * b / decided), fixed2(want["black"].get<double>()));
      if (want["avg_rating"].is_null())
        EXPECT_FALSE(got.contains("averageRating"));
      else
        EXPECT_EQ(got["averageRating"], std::lround(want["avg_rating"].get<double>()));
      const std::string opening = got["opening"].is_null() ? std::string()
                                                           : got["opening"]["eco"].get<std::string>() + " " +
                                                                 got["opening"]["name"].get<std::string>();
      EXPECT_EQ(opening, want["opening"]);
    }
    EXPECT_EQ(served["white"], white);
    EXPECT_EQ(served["draws"], draws);
    EXPECT_EQ(served["black"], black);
    EXPECT_EQ(served["bookforge"]["unknownResults"],
              expected["games"].get<uint64_t>() - (white + draws + black));
  }
  // lichess's default: twelve moves listed at most.
  const size_t known = parse_json(curl_get(url("/api/explorer?moves=1000&play=e2e4")))["moves"].size();
  EXPECT_EQ(parse_json(curl_get(url("/api/explorer?play=e2e4")))["moves"].size(),
            std::min<size_t>(known, 12));
  EXPECT_EQ(parse_json(curl_get(url("/api/explorer?play=e2e4&moves=3")))["moves"].size(), 3u);
}

TEST_F(ServeTest, LichessPathsAnswerTheSame) {
  for (const char* query :
       {"play=e2e4,c7c5", "fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR%20b%20KQkq%20-%200%201"}) {
    CommandResult r = run_program({"python3", checks_script().string(), "same", server_->url(), query});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  }
  CommandResult filtered = run_program(
      {"python3", checks_script().string(), "same", server_->url(), "play=e2e4&speeds=classical,unknown"});
  EXPECT_EQ(filtered.exit_code, 0) << filtered.out << filtered.err;
  const Json answer =
      parse_json(curl_get(url("/lichess?play=e2e4&speeds=blitz,rapid&ratings=2200&since=2015-01")));
  EXPECT_EQ(answer["bookforge"]["filter"], "speeds=blitz,rapid; ratings=2200; since=2015-01");
  EXPECT_FALSE(answer["bookforge"].contains("ignored"));
}

// lichess's history: /lichess/history and history=true answer db explore --history's months.
TEST_F(ServeTest, HistoryIsDbExploresMonthByMonth) {
  for (const std::string play : {"", "e2e4,c7c5"}) {
    SCOPED_TRACE("play=" + play);
    std::string moves = play;
    std::replace(moves.begin(), moves.end(), ',', ' ');
    CommandResult cli = run_bookforge({"db", "explore", "--db", store().string(), "--moves", moves,
                                       "--history", "--json", "--since", "2012-03"});
    ASSERT_EQ(cli.exit_code, 0) << cli.err;
    const Json months = Json::parse(cli.out)["history"]["months"];
    ASSERT_FALSE(months.empty());
    for (const std::string path :
         {"/lichess/history?since=2012-03&play=", "/lichess?history=true&since=2012-03&play="}) {
      const Json served = parse_json(curl_get(url(path + play)));
      ASSERT_EQ(served["history"].size(), months.size()) << path;
      for (size_t i = 0; i < months.size(); ++i) {
        EXPECT_EQ(served["history"][i]["month"], months[i]["month"]);
        for (const char* field : {"white", "draws", "black"})
          EXPECT_EQ(served["history"][i][field], months[i][field]);
      }
      if (path.rfind("/lichess/history", 0) == 0) {
        EXPECT_TRUE(served["moves"].empty());
      }
    }
  }
  EXPECT_FALSE(parse_json(curl_get(url("/lichess?play=e2e4")))["bookforge"].contains("history"));
  EXPECT_FALSE(parse_json(curl_get(url("/masters?history=true"))).contains("history"));  // as lichess's
}

// lichess's player explorer: /player answers db explore --player's counts.
TEST_F(ServeTest, PlayerIsDbExplorePlayer) {
  const std::string player = "Podolchenko,E";
  for (const std::string color : {"white", "black"}) {
    CommandResult cli = run_bookforge(
        {"db", "explore", "--db", store().string(), "--player", player, "--color", color, "--json"});
    ASSERT_EQ(cli.exit_code, 0) << cli.err;
    const Json expected = Json::parse(cli.out);
    const Json served =
        parse_json(curl_get(url("/player?player=Podolchenko%2CE&recentGames=8&color=" + color)));
    ASSERT_EQ(served["moves"].size(), expected["moves"].size()) << color;
    ASSERT_FALSE(served["moves"].empty());
    for (size_t i = 0; i < expected["moves"].size(); ++i) {
      EXPECT_EQ(served["moves"][i]["uci"], expected["moves"][i]["uci"]);
      for (const char* field : {"white", "draws", "black"})
        EXPECT_EQ(served["moves"][i][field], expected["moves"][i][field]);
    }
    EXPECT_EQ(served["recentGames"].size(), std::min<size_t>(8, expected["recent_games"].size()));
    EXPECT_EQ(served["queuePosition"], 0);
  }
  EXPECT_EQ(curl_get(url("/player?player=x")).status, 400);
  EXPECT_EQ(curl_get(url("/player?color=white")).status, 400);
  EXPECT_EQ(curl_get(url("/player?player=x&color=white&modes=fun")).status, 400);
  EXPECT_EQ(parse_json(curl_get(url("/personal?player=nobody&color=white")))["moves"].size(), 0u);
}

// The player tab's name suggestions: the names starting with the prefix, any ASCII case, each
// with its games as White and as Black (db explore --player's player_games of both colours).
TEST_F(ServeTest, PlayersAreSuggestedByPrefixWithTheirGames) {
  const std::string player = "Podolchenko,E";
  uint64_t games = 0;
  for (const std::string color : {"white", "black"}) {
    CommandResult cli = run_bookforge(
        {"db", "explore", "--db", store().string(), "--player", player, "--color", color, "--json"});
    ASSERT_EQ(cli.exit_code, 0) << cli.err;
    games += Json::parse(cli.out)["player_games"].get<uint64_t>();
  }
  ASSERT_GT(games, 0u);
  const Json found = parse_json(curl_get(url("/api/players?prefix=pODOLCH")));
  ASSERT_EQ(found["players"].size(), 1u) << found.dump();
  EXPECT_EQ(found["players"][0]["name"], player);
  EXPECT_EQ(found["players"][0]["games"], games);
  // Most games first, and no more than asked.
  const Json many = parse_json(curl_get(url("/api/players?prefix=a&limit=5")));
  ASSERT_EQ(many["players"].size(), 5u);
  for (size_t i = 1; i < 5; ++i) EXPECT_GE(many["players"][i - 1]["games"], many["players"][i]["games"]);
  EXPECT_TRUE(parse_json(curl_get(url("/api/players?prefix=zzzzzz")))["players"].empty());
  EXPECT_EQ(curl_get(url("/api/players")).status, 400);
  EXPECT_EQ(curl_get(url("/api/players?prefix=a&limit=0")).status, 400);
}

// A pasted game's novelty is db novelty's for the same game in a file, with the same options.
TEST_F(ServeTest, NoveltyOfAPastedGameIsDbNoveltys) {
  const std::string text = read_file(source_dir() / "data-samples" / "twic0920-2000.pgn");
  const size_t second = text.find("[Event ", 1);
  ASSERT_NE(second, std::string::npos);
  const fs::path game = *dir_ / "one-game.pgn";
  write_file(game, text.substr(0, second));
  for (const std::string min_games : {"1", "20"}) {
    SCOPED_TRACE("minGames=" + min_games);
    CommandResult cli = run_bookforge(
        {"db", "novelty", "--db", store().string(), "--min-games", min_games, "--json", game.string()});
    ASSERT_EQ(cli.exit_code, 0) << cli.err;
    const Json expected = Json::parse(cli.out)["games"][0];
    const Json served = parse_json(curl_get(url("/api/novelty?minGames=" + min_games),
                                            {"-G", "--data-urlencode", "pgn@" + game.string()}));
    EXPECT_EQ(served["left_tree"], expected["left_tree"]);
    EXPECT_EQ(served["novelty"], expected["novelty"]);
    EXPECT_EQ(served["path"], expected["path"]);
    EXPECT_EQ(served["top_games"], expected["top_games"]);
  }
  HttpAnswer bad = curl_get(url("/api/novelty?pgn=1.%20e4%20e4"));
  EXPECT_EQ(bad.status, 400) << bad.body;
  EXPECT_NE(bad.body.find("pgn: line 1"), std::string::npos) << bad.body;
  EXPECT_EQ(curl_get(url("/api/novelty")).status, 400);
  EXPECT_EQ(curl_get(url("/api/novelty?pgn=1.e4&minGames=0")).status, 400);
}

TEST_F(ServeTest, BadParametersGet400NamingTheParameter) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/api/explorer?fen=not-a-fen", "fen: "},     {"/api/explorer?play=e2e4,e7e9", "play: move 2 "},
      {"/masters?moves=many", "moves: "},           {"/lichess?variant=atomic", "variant: "},
      {"/api/explorer?speeds=fast", "speeds: "},    {"/lichess?ratings=2000,high", "ratings: "},
      {"/api/explorer?since=2015-13", "since: "},   {"/api/explorer?until=20", "until: "},
      {"/api/position?play=e2e5", "play: move 1 "}, {"/api/books?fen=8/8/8/8/8/8/8/8%20w%20-%20-", "fen: "},
      {"/api/engine?depth=31", "depth: "},          {"/api/engine?movetime=-5", "movetime: "},
      {"/masters?since=2015-01", "since: "},        {"/lichess?history=maybe", "history: "},
  };
  for (const auto& [path, message] : cases) {
    const HttpAnswer answer = curl_get(url(path));
    EXPECT_EQ(answer.status, 400) << path << ": " << answer.body;
    const Json error = parse_json(answer);
    EXPECT_TRUE(error["error"].get<std::string>().starts_with(message)) << path << ": " << answer.body;
    expect_alive();
  }
}

TEST_F(ServeTest, TopGamesAreTheStoresAndTheirPgnComesFromTheSource) {
  for (const std::string play : {"", "e2e4", "e2e4,c7c5"}) {
    SCOPED_TRACE("play=" + play);
    const Json served = parse_json(curl_get(url("/api/explorer?play=" + play)));
    const Json expected = db_explore(play);
    std::vector<std::string> legal;
    for (const Json& move : expected["moves"]) legal.push_back(move["uci"]);
    for (const auto& [ours, theirs] :
         {std::pair{"topGames", "top_games"}, std::pair{"recentGames", "recent_games"}}) {
      // lichess lists a game with the move it played; the store can tell it for most games.
      ASSERT_FALSE(served[ours].empty()) << ours;
      ASSERT_LE(served[ours].size(), expected[theirs].size()) << ours;
      size_t at = 0;  // the served games are the store's, in its order
      for (const Json& got : served[ours]) {
        while (at < expected[theirs].size() && expected[theirs][at]["id"] != got["bookforge"]["id"]) ++at;
        ASSERT_LT(at, expected[theirs].size()) << got.dump();
        const Json& want = expected[theirs][at];
        EXPECT_EQ(got["id"], store::short_game_id(*store::parse_game_id(want["id"].get<std::string>())));
        EXPECT_NE(std::find(legal.begin(), legal.end(), got["uci"]), legal.end()) << got["uci"];
        EXPECT_EQ(got["white"]["name"], want["white"]);
        EXPECT_EQ(got["black"]["name"], want["black"]);
        if (want["white_elo"].is_null())
          EXPECT_FALSE(got["white"].contains("rating"));
        else
          EXPECT_EQ(got["white"]["rating"], want["white_elo"]);
        const std::string result = want["result"];
        EXPECT_EQ(got["winner"], result == "1-0"   ? Json("white")
                                 : result == "0-1" ? Json("black")
                                                   : Json(nullptr));
      }
    }
  }
  // lichess's topGames / recentGames cut the lists.
  EXPECT_EQ(parse_json(curl_get(url("/api/explorer?topGames=1&recentGames=0")))["topGames"].size(), 1u);
  EXPECT_TRUE(parse_json(curl_get(url("/api/explorer?topGames=1&recentGames=0")))["recentGames"].empty());

  // A game's PGN, as `db game` prints it, by either id, and at lichess's masters paths.
  const Json top = parse_json(curl_get(url("/masters")))["topGames"][0];
  const std::string id = top["id"], full_id = top["bookforge"]["id"];
  CommandResult printed = run_bookforge({"db", "game", full_id, "--db", store().string()});
  ASSERT_EQ(printed.exit_code, 0) << printed.err;
  for (const std::string& path : {"/api/game?id=" + id, "/api/game?id=" + full_id, "/masters/pgn/" + id,
                                  "/master/pgn/" + id, "/masters/pgn/" + full_id}) {
    const HttpAnswer pgn = curl_get(url(path));
    EXPECT_EQ(pgn.status, 200) << path << ": " << pgn.body;
    EXPECT_TRUE(pgn.content_type.starts_with("application/x-chess-pgn")) << pgn.content_type;
    EXPECT_FALSE(pgn.body.empty());
    EXPECT_EQ(pgn.body + (pgn.body.ends_with("\n") ? "" : "\n"), printed.out) << path;
  }
  for (const char* path : {"/api/game?id=0123456789abcdef", "/masters/pgn/00000000"}) {
    const HttpAnswer unknown = curl_get(url(path));
    EXPECT_EQ(unknown.status, 404) << path << ": " << unknown.body;
  }
  for (const char* path : {"/api/game?id=x1", "/masters/pgn/abc-defg"}) {
    const HttpAnswer bad = curl_get(url(path));
    EXPECT_EQ(bad.status, 400) << path << ": " << bad.body;
    EXPECT_TRUE(parse_json(bad).contains("error"));
  }
  expect_alive();
}

TEST_F(ServeTest, AMovePlayedInOneGameNamesIt) {
  // Somewhere in the first plies a move was played once: its game is the one the next position lists.
  bool seen = false;
  for (const std::string play : {"", "e2e4", "d2d4", "g1f3", "c2c4", "e2e4,c7c5"}) {
    const Json served = parse_json(curl_get(url("/api/explorer?moves=1000&play=" + play)));
    for (const Json& move : served["moves"]) {
      if (move["games"] != 1) {
        EXPECT_TRUE(move["game"].is_null()) << move.dump();
        continue;
      }
      ASSERT_TRUE(move["game"].is_object()) << play << " " << move.dump();
      const std::string next =
          play.empty() ? move["uci"].get<std::string>() : play + "," + move["uci"].get<std::string>();
      const Json after = db_explore(next);
      const Json& listed = after["top_games"];
      ASSERT_EQ(listed.size(), 1u) << next;
      EXPECT_EQ(move["game"]["bookforge"]["id"], listed[0]["id"]) << next;
      seen = true;
    }
  }
  EXPECT_TRUE(seen) << "no move of one game in the lines tried";
}

TEST_F(ServeTest, LichesssParametersAreTakenAsLichessTakesThem) {
  const Json spaces = parse_json(
      curl_get(url("/lichess?fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR%20b%20KQkq%20-%200%201")));
  const Json underscores =
      parse_json(curl_get(url("/lichess?fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR_b_KQkq_-_0_1")));
  EXPECT_EQ(spaces, underscores);
  EXPECT_FALSE(spaces["moves"].empty());
  for (const char* variant : {"fromPosition", "standard"}) {
    const HttpAnswer answer = curl_get(url(std::string("/lichess?play=e2e4&variant=") + variant));
    EXPECT_EQ(answer.status, 200) << variant << ": " << answer.body;
    EXPECT_EQ(parse_json(answer), parse_json(curl_get(url("/lichess?play=e2e4")))) << variant;
  }
  // The store holds standard games only: none of Chess960.
  const HttpAnswer chess960 = curl_get(url("/lichess?play=e2e4&variant=chess960"));
  EXPECT_EQ(chess960.status, 200) << chess960.body;
  EXPECT_TRUE(parse_json(chess960)["moves"].empty());
  EXPECT_EQ(curl_get(url("/lichess?variant=crazyhouse")).status, 400);
  EXPECT_EQ(curl_get(url("/lichess?ratings=1500")).status, 200);
  // A since after until: no game, as lichess answers.
  const HttpAnswer reversed = curl_get(url("/lichess?since=2020-02&until=2019-12"));
  EXPECT_EQ(reversed.status, 200) << reversed.body;
  const Json empty = parse_json(reversed);
  EXPECT_EQ(empty["white"], 0);
  EXPECT_EQ(empty["draws"], 0);
  EXPECT_EQ(empty["black"], 0);
  EXPECT_TRUE(empty["moves"].empty());
  EXPECT_EQ(parse_json(curl_get(url("/masters?since=2021&until=2020")))["moves"].size(), 0u);
}

TEST_F(ServeTest, AnswersAreLichesssShapeForEachPathAndAnyOriginMayReadThem) {
  const HttpAnswer masters = curl_get(url("/masters?play=e2e4"));
  const Json answer = parse_json(masters);
  EXPECT_FALSE(answer.contains("recentGames"));
  EXPECT_FALSE(answer["topGames"].empty());
  EXPECT_TRUE(parse_json(curl_get(url("/master?play=e2e4"))).contains("topGames"));
  EXPECT_TRUE(parse_json(curl_get(url("/lichess?play=e2e4"))).contains("recentGames"));
  for (const std::string path :
       {"/masters", "/lichess", "/api/explorer", "/api/info", "/api/explorer?fen=x"}) {
    const HttpAnswer any = curl_get(url(path));
    EXPECT_NE(any.headers.find("Access-Control-Allow-Origin: *"), std::string::npos) << path << any.headers;
  }
}

TEST_F(ServeTest, UnknownPathsAndTraversalGet404) {
  for (const char* path : {"/../../etc/passwd", "/vendor/../../x", "/nothing.js", "/api/nothing"}) {
    const HttpAnswer answer = curl_get(url(path));
    EXPECT_EQ(answer.status, 404) << path << ": " << answer.body;
    EXPECT_TRUE(parse_json(answer).contains("error")) << path;
  }
  expect_alive();
}

TEST_F(ServeTest, MalformedAndOversizedRequestsGetJsonErrors) {
  CommandResult r = run_program({"python3", checks_script().string(), "hostile", server_->url()});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("huge request line: 414"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("huge body: 413"), std::string::npos) << r.out;
  expect_alive();
}

TEST_F(ServeTest, RandomQueryStringsAlwaysGetJson) {
  CommandResult r =
      run_program({"python3", checks_script().string(), "property", server_->url(), "3000", "20261124"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("server alive"), std::string::npos) << r.out;
}

TEST_F(ServeTest, BooksAnswerAsProbe) {
  const Json served = parse_json(curl_get(url("/api/books?play=e2e4")));
  CommandResult probed = run_bookforge({"probe", book().string(), "--moves", "e4", "--json"});
  ASSERT_EQ(probed.exit_code, 0) << probed.err;
  const Json expected = Json::parse(probed.out);
  ASSERT_EQ(served["books"].size(), 1u);
  EXPECT_EQ(served["books"][0]["name"], "book.bin");
  const Json& moves = served["books"][0]["moves"];
  ASSERT_EQ(moves.size(), expected["moves"].size());
  ASSERT_FALSE(moves.empty());
  double share = 0;
  for (size_t i = 0; i < moves.size(); ++i) {
    EXPECT_EQ(moves[i]["uci"], expected["moves"][i]["uci"]);
    EXPECT_EQ(moves[i]["san"], expected["moves"][i]["san"]);
    EXPECT_EQ(moves[i]["weight"], expected["moves"][i]["weight"]);
    share += moves[i]["share"].get<double>();
  }
  EXPECT_NEAR(share, 100.0, 0.2);
}

TEST_F(ServeTest, EngineSearchesWithinItsBounds) {
  const Json line = parse_json(curl_get(url("/api/engine?play=e2e4,e7e5&depth=6")));
  EXPECT_GE(line["depth"].get<int>(), 1);
  EXPECT_LE(line["depth"].get<int>(), 6);
  ASSERT_FALSE(line["pv"].empty());
  EXPECT_EQ(line["pv"].size(), line["pvSan"].size());
  EXPECT_TRUE(line["score"].contains("cp") || line["score"].contains("mate"));
  EXPECT_GT(line["nodes"].get<uint64_t>(), 0u);
  // A depth alone is searched to (within the longest movetime), and the answer says so.
  EXPECT_EQ(line["depth"], 6);
  EXPECT_EQ(line["stoppedBy"], "depth");
  EXPECT_EQ(parse_json(curl_get(url("/api/engine?depth=30&movetime=50")))["stoppedBy"], "movetime");
  const Json mated = parse_json(curl_get(url("/api/engine?play=f2f3,e7e5,g2g4,d8h4")));
  EXPECT_EQ(mated["score"], Json({{"mate", 0}}));
  EXPECT_EQ(mated["stoppedBy"], "no legal moves");
  const HttpAnswer long_id = curl_get(url("/api/engine?depth=1&client=" + std::string(65, 'x')));
  EXPECT_EQ(long_id.status, 400);
  EXPECT_TRUE(parse_json(long_id)["error"].get<std::string>().starts_with("client: ")) << long_id.body;
}

TEST_F(ServeTest, PositionAndInfo) {
  const Json position = parse_json(curl_get(url("/api/position?play=e2e4,c7c5")));
  EXPECT_EQ(position["line"], Json::parse(R"([{"uci":"e2e4","san":"e4"},{"uci":"c7c5","san":"c5"}])"));
  EXPECT_EQ(position["turn"], "white");
  EXPECT_EQ(position["legal"].size(), 30u);
  const Json info = parse_json(curl_get(url("/api/info")));
  EXPECT_EQ(info["store"]["games"], 2000);
  EXPECT_EQ(info["store"]["sources"], 1);
  EXPECT_EQ(info["books"], Json::array({"book.bin"}));
  EXPECT_EQ(info["filters"], Json::parse(R"({"speeds":true,"ratings":true,"months":true})"));
}

TEST_F(ServeTest, ThePageIsServedWhenBuiltIn) {
  const HttpAnswer page = curl_get(url("/"));
  if (serve::embedded_web_files().empty()) {
    EXPECT_EQ(page.status, 404);
    EXPECT_TRUE(parse_json(page).contains("error"));
  } else {
    EXPECT_EQ(page.status, 200);
    EXPECT_TRUE(page.content_type.starts_with("text/html")) << page.content_type;
  }
}

// Seven games, each in its own slice: speed from TimeControl, band from the mean Elo, month
// from UTCDate before Date. The comment on each says which.
constexpr const char* kSlicedGames =
    R"([TimeControl "180+2"] [WhiteElo "2250"] [BlackElo "2210"] [Date "2019.05.10"]
[Result "1-0"]

1. e4 e5 2. Nf3 1-0

[TimeControl "600+0"] [WhiteElo "1500"] [BlackElo "1520"] [Date "2021.03.01"] [Result "0-1"]

1. e4 c5 0-1

[TimeControl "60+0"] [Date "2022.??.??"] [Result "1/2-1/2"]

1. d4 d5 1/2-1/2

[TimeControl "15+0"] [WhiteElo "2850"] [BlackElo "2810"] [Date "????.??.??"] [Result "1-0"]

1. e4 e5 1-0

[WhiteElo "1900"] [BlackElo "1950"] [UTCDate "2018.12.31"] [Date "2019.01.01"] [Result "0-1"]

1. c4 e5 0-1

[TimeControl "5400+30"] [WhiteElo "2450"] [BlackElo "2350"] [Date "2020.07.15"] [Result "1/2-1/2"]

1. e4 e5 1/2-1/2

[TimeControl "-"] [WhiteElo "1000"] [BlackElo "990"] [Date "2023.11.02"] [Result "1-0"]

1. e4 c5 1-0
)";
// Game by game:  1 blitz, band 2200, 2019-05      2 rapid, band 1400, 2021-03
//                3 bullet, unrated, 2022 (no month) 4 ultrabullet, band 2800, unknown date
//                5 unknown speed, band 1800, 2018-12 (UTCDate; its Date says 2019-01)
//                6 classical, band 2200, 2020-07     7 correspondence, below 1000, 2023-11

class ServeSlicesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    write_file(*dir_ / "sliced.pgn", kSlicedGames);
    const std::string db = (*dir_ / "sliced.sqlite").string();
    CommandResult added = run_bookforge({"db", "add", "--db", db, (*dir_ / "sliced.pgn").string()});
    ASSERT_EQ(added.exit_code, 0) << added.err;
    server_ = new ServeProcess({"--db", db});
  }
  static void TearDownTestSuite() {
    delete server_;
    delete dir_;
  }
  void SetUp() override { ASSERT_FALSE(server_->url().empty()) << "the server did not start"; }

  static Json explore(const std::string& query) {
    const HttpAnswer answer = curl_get(server_->url() + "api/explorer?" + query);
    EXPECT_EQ(answer.status, 200) << query << ": " << answer.body;
    return parse_json(answer);
  }
  // The listed moves as "uci:games ...", and white/draws/black of the position.
  static std::string moves_of(const Json& answer) {
    std::string text;
    for (const Json& move : answer["moves"]) {
      if (!text.empty()) text += ' ';
      text += move["uci"].get<std::string>() + ":" + std::to_string(move["games"].get<uint64_t>());
    }
    return text;
  }
  static std::string results_of(const Json& answer) {
    return std::to_string(answer["white"].get<uint64_t>()) + "/" +
           std::to_string(answer["draws"].get<uint64_t>()) + "/" +
           std::to_string(answer["black"].get<uint64_t>());
  }

  static inline TempDir* dir_ = nullptr;
  static inline ServeProcess* server_ = nullptr;
};

TEST_F(ServeSlicesTest, FiltersCountOnlyTheGamesTheySelect) {
  struct Case {
    std::string query, moves, results;
  };
  const std::vector<Case> cases = {
      {"", "e2e4:5 c2c4:1 d2d4:1", "3/2/2"},
      {"speeds=blitz,rapid", "e2e4:2", "1/0/1"},
      {"speeds=ultraBullet", "e2e4:1", "1/0/0"},
      {"speeds=ultrabullet", "e2e4:1", "1/0/0"},
      {"speeds=unknown", "c2c4:1", "0/0/1"},
      {"speeds=correspondence,bullet", "d2d4:1 e2e4:1", "1/1/0"},
      {"ratings=2200", "e2e4:2", "1/1/0"},
      {"ratings=2800,unrated", "d2d4:1 e2e4:1", "1/1/0"},
      {"ratings=0", "e2e4:1", "1/0/0"},
      {"since=2019&until=2021-02", "e2e4:2", "1/1/0"},
      {"since=2022", "d2d4:1 e2e4:1", "1/1/0"},
      {"until=2018-12", "c2c4:1", "0/0/1"},
      {"speeds=blitz&ratings=2200&since=2019-05&until=2019-05", "e2e4:1", "1/0/0"},
      {"speeds=bullet&ratings=2200", "", "0/0/0"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.query);
    const Json answer = explore(c.query);
    EXPECT_EQ(moves_of(answer), c.moves);
    EXPECT_EQ(results_of(answer), c.results);
  }
  EXPECT_EQ(explore("")["bookforge"]["filter"], "none");
  EXPECT_EQ(explore("speeds=ultraBullet&ratings=2800&since=2019-05")["bookforge"]["filter"],
            "speeds=ultrabullet; ratings=2800; since=2019-05");
}

TEST_F(ServeSlicesTest, APlayLineCountsItsArrivalUnderTheFilter) {
  const Json all = explore("play=e2e4");
  EXPECT_EQ(moves_of(all), "e7e5:3 c7c5:2");
  EXPECT_EQ(all["bookforge"]["byLine"], 5);
  const Json rapid = explore("play=e2e4&speeds=rapid,correspondence");
  EXPECT_EQ(moves_of(rapid), "c7c5:2");
  EXPECT_EQ(rapid["bookforge"]["games"], 2);
  EXPECT_EQ(rapid["bookforge"]["byLine"], 2);
  EXPECT_EQ(rapid["bookforge"]["byOtherOrders"], 0);
}

TEST_F(ServeSlicesTest, MovesCarryTheStoresStatisticsOfTheSlice) {
  // Band 2200: games 1 (2250 beat 2210 in 2019) and 6 (2450 drew 2350 in 2020).
  const Json answer = explore("ratings=2200");
  ASSERT_EQ(answer["moves"].size(), 1u);
  const Json& e4 = answer["moves"][0];
  EXPECT_EQ(e4["averageRating"], 2350);
  EXPECT_EQ(e4["averageOpponentRating"], 2280);
  EXPECT_EQ(e4["performance"], 2280 + 400 * 1 / 2);  // one win, one draw
  EXPECT_EQ(e4["bookforge"]["share"], 100.0);
  EXPECT_EQ(e4["bookforge"]["firstYear"], 2019);
  EXPECT_EQ(e4["bookforge"]["lastYear"], 2020);
  // Unrated and of no known date: game 4's ratings and game 3's year only.
  const Json unrated = explore("ratings=unrated");
  ASSERT_EQ(unrated["moves"].size(), 1u);
  EXPECT_FALSE(unrated["moves"][0].contains("averageRating"));  // unknown: left out, as lichess does
  EXPECT_FALSE(unrated["moves"][0].contains("performance"));
  EXPECT_EQ(unrated["moves"][0]["bookforge"]["firstYear"], 2022);
  const Json undated = explore("ratings=2800");
  EXPECT_TRUE(undated["moves"][0]["bookforge"]["firstYear"].is_null());
  EXPECT_TRUE(undated["moves"][0]["bookforge"]["lastYear"].is_null());
}

TEST(Serve, CtrlCStopsItWithExitZeroAndNoFileLeft) {
  TempDir dir;
  const std::string pgn = (source_dir() / "data-samples" / "twic0920-2000.pgn").string();
  ASSERT_EQ(run_bookforge({"db", "add", "--db", (dir / "tree.sqlite").string(), pgn}).exit_code, 0);
  std::vector<std::string> before;
  for (const auto& entry : fs::directory_iterator(dir.path())) before.push_back(entry.path().filename());
  {
    ServeProcess server({"--db", (dir / "tree.sqlite").string()});
    ASSERT_FALSE(server.url().empty());
    const HttpAnswer answer = curl_get(server.url() + "api/explorer?play=d2d4");
    EXPECT_EQ(answer.status, 200);
    EXPECT_EQ(server.interrupt(), 0);
  }
  std::vector<std::string> after;
  for (const auto& entry : fs::directory_iterator(dir.path())) after.push_back(entry.path().filename());
  std::sort(before.begin(), before.end());
  std::sort(after.begin(), after.end());
  EXPECT_EQ(after, before);
}

// One server over two stores, as lichess's explorer holds masters and online games: the
// TWIC sample answers /masters, the lichess sample /lichess.
class TwoStoresTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    for (const auto& [db, pgn] :
         {std::pair{masters(), "twic0920-2000.pgn"}, std::pair{lichess(), "lichess-2016-05-1000.pgn"}}) {
      CommandResult added =
          run_bookforge({"db", "add", "--db", db, (source_dir() / "data-samples" / pgn).string()});
      ASSERT_EQ(added.exit_code, 0) << added.err;
    }
    server_ = new ServeProcess({"--masters", masters(), "--lichess", lichess()});
  }
  static void TearDownTestSuite() {
    delete server_;
    delete dir_;
  }
  void SetUp() override { ASSERT_FALSE(server_->url().empty()) << "the server did not start"; }
  static std::string masters() { return (*dir_ / "masters.sqlite").string(); }
  static std::string lichess() { return (*dir_ / "lichess.sqlite").string(); }
  // db explore's count of the games after 1. e4 in `db`.
  static uint64_t games_in(const std::string& db) {
    CommandResult explored = run_bookforge({"db", "explore", "--db", db, "--moves", "e2e4", "--json"});
    EXPECT_EQ(explored.exit_code, 0) << explored.err;
    return Json::parse(explored.out)["games"].get<uint64_t>();
  }
  static uint64_t served_games(const ServeProcess& server, const std::string& path) {
    return parse_json(curl_get(server.url() + path + "?play=e2e4"))["bookforge"]["games"].get<uint64_t>();
  }

  static inline TempDir* dir_ = nullptr;
  static inline ServeProcess* server_ = nullptr;
};

TEST_F(TwoStoresTest, MastersAndLichessEachAnswerFromTheirOwnStore) {
  ASSERT_NE(games_in(masters()), games_in(lichess()));
  EXPECT_EQ(served_games(*server_, "masters"), games_in(masters()));
  EXPECT_EQ(served_games(*server_, "master"), games_in(masters()));
  EXPECT_EQ(served_games(*server_, "lichess"), games_in(lichess()));
  EXPECT_EQ(served_games(*server_, "api/explorer"), games_in(lichess()));  // without --db, --lichess's
  // A masters game's PGN comes from the masters store.
  const std::string id = parse_json(curl_get(server_->url() + "masters"))["topGames"][0]["id"];
  EXPECT_EQ(curl_get(server_->url() + "masters/pgn/" + id).status, 200);

  // With --db too, /masters keeps its own store and the rest read --db's.
  ServeProcess with_db({"--db", lichess(), "--masters", masters()});
  ASSERT_FALSE(with_db.url().empty());
  EXPECT_EQ(served_games(with_db, "masters"), games_in(masters()));
  EXPECT_EQ(served_games(with_db, "lichess"), games_in(lichess()));
}

// tests/serve/lila_explorer_shape.txt holds lila-openingexplorer's fields and statuses, written
// from its source; lila_shape.py checks every field of our answers against it.
// The player tab's suggestions are names /player finds: from its store (--lichess), not --db's.
TEST_F(TwoStoresTest, PlayerSuggestionsComeFromThePlayerExplorersStore) {
  ServeProcess server({"--db", masters(), "--lichess", lichess()});
  ASSERT_FALSE(server.url().empty()) << "the server did not start";
  EXPECT_TRUE(parse_json(curl_get(server.url() + "api/players?prefix=Podolch"))["players"].empty());
  const Json found = parse_json(curl_get(server.url() + "api/players?prefix=German1"));
  ASSERT_EQ(found["players"].size(), 1u) << found.dump();
  uint64_t games = 0;
  for (const std::string color : {"white", "black"})
    games += parse_json(
                 curl_get(server.url() + "player?player=german11&color=" + color))["bookforge"]["playerGames"]
                 .get<uint64_t>();
  EXPECT_EQ(found["players"][0]["games"], games);
}

TEST_F(TwoStoresTest, AnswersHoldToLilasFieldsAndStatuses) {
  const fs::path here = source_dir() / "tests" / "serve";
  CommandResult r = run_program(
      {"python3", (here / "lila_shape.py").string(), (here / "lila_explorer_shape.txt").string(),
       server_->url(), "", "play=e2e4", "play=d2d4,g8f6,c2c4", "play=e2e4,c7c5,g1f3,d7d6,d2d4",
       "play=g2g4,e7e5,f2f3", "play=e2e4&speeds=blitz&ratings=1500", "play=e2e4&topGames=2&recentGames=1",
       "play=e2e4,e7e5&history=true", "history=true&since=2012&until=2012"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

// A lichess opening-explorer client from npm (tests/clients/lichess_explorer_client.mjs says
// how it is pointed here), installed by scripts/install-deps.sh; skipped, saying why, without
// node or the package, as the other Node.js clients are.
TEST_F(TwoStoresTest, ALichessExplorerClientFromNpmGetsOurAnswers) {
  const fs::path clients = source_dir() / "tests" / "clients";
  if (run_program({"node", "--version"}).exit_code != 0) GTEST_SKIP() << "node is not installed";
  if (!fs::exists(clients / "node_modules" / "lichess-opening-explorer" / "package.json"))
    GTEST_SKIP()
        << "lichess-opening-explorer is not installed (scripts/install-deps.sh runs npm ci in tests/clients)";
  CommandResult r = run_program({"node", (clients / "lichess_explorer_client.mjs").string(), server_->url()});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("6 answers, each ours in lichess's shape"), std::string::npos) << r.out;
}

TEST(Serve, BadCommandLinesAreRefused) {
  TempDir dir;
  CommandResult none = run_bookforge({"serve", "--port", "0"});
  EXPECT_EQ(none.exit_code, 2) << none.err;
  CommandResult missing = run_bookforge({"serve", "--db", (dir / "absent.sqlite").string(), "--port", "0"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("absent.sqlite"), std::string::npos) << missing.err;
  CommandResult port = run_bookforge({"serve", "--db", "x.sqlite", "--port", "70000"});
  EXPECT_EQ(port.exit_code, 2);
  EXPECT_NE(port.err.find("--port"), std::string::npos) << port.err;
}

}  // namespace
}  // namespace bookforge::test
