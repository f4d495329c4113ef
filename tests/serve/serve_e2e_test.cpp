// `bookforge serve` end to end: the real binary on a store made by `db add` and a book made by
// `build`, asked by HTTP clients nobody here wrote (curl, Python's http.client and urllib). The
// explorer's numbers must equal `db explore --json`, the books' `probe --json`; bad and hostile
// requests get JSON errors and the server goes on; Ctrl-C ends it with 0 and no file left.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "serve/embedded_web_files.h"
#include "serve/serve_process.h"
#include "support/test_support.h"

namespace bookforge::test {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

struct HttpAnswer {
  int status = 0;
  std::string content_type;
  std::string body;
};

// One GET with curl: the status and content type come after the body (-w), one per line.
HttpAnswer curl_get(const std::string& url) {
  CommandResult r = run_program({"curl", "--silent", "--show-error", "--path-as-is", "--max-time", "60",
                                 "--write-out", "\n%{http_code}\n%{content_type}", url});
  EXPECT_EQ(r.exit_code, 0) << "curl " << url << ": " << r.err;
  HttpAnswer answer;
  const size_t type_line = r.out.rfind('\n');
  const size_t status_line = r.out.rfind('\n', type_line - 1);
  if (type_line == std::string::npos || status_line == std::string::npos) return answer;
  answer.content_type = r.out.substr(type_line + 1);
  answer.status = std::atoi(r.out.substr(status_line + 1, type_line - status_line - 1).c_str());
  answer.body = r.out.substr(0, status_line);
  return answer;
}

Json parse_json(const HttpAnswer& answer) {
  EXPECT_TRUE(answer.content_type.starts_with("application/json")) << answer.content_type;
  Json parsed = Json::parse(answer.body, nullptr, false);
  EXPECT_FALSE(parsed.is_discarded()) << answer.body;
  return parsed;
}

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
    std::string moves = play;
    std::replace(moves.begin(), moves.end(), ',', ' ');
    CommandResult explored =
        run_bookforge({"db", "explore", "--db", store().string(), "--moves", moves, "--json"});
    ASSERT_EQ(explored.exit_code, 0) << explored.err;
    const Json expected = Json::parse(explored.out);

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
        EXPECT_TRUE(got["averageRating"].is_null());
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
  const Json ignored =
      parse_json(curl_get(url("/lichess?play=e2e4&speeds=blitz,rapid&ratings=2200&since=2015-01")));
  EXPECT_EQ(ignored["bookforge"]["ignored"], Json::parse(R"(["speeds","ratings","since"])"));
}

TEST_F(ServeTest, BadParametersGet400NamingTheParameter) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/api/explorer?fen=not-a-fen", "fen: "},
      {"/api/explorer?play=e2e4,e7e9", "play: move 2 "},
      {"/masters?moves=many", "moves: "},
      {"/lichess?variant=atomic", "variant: "},
      {"/api/explorer?speeds=fast", "speeds: "},
      {"/api/position?play=e2e5", "play: move 1 "},
      {"/api/books?fen=8/8/8/8/8/8/8/8%20w%20-%20-", "fen: "},
      {"/api/engine?depth=31", "depth: "},
      {"/api/engine?movetime=-5", "movetime: "},
  };
  for (const auto& [path, message] : cases) {
    const HttpAnswer answer = curl_get(url(path));
    EXPECT_EQ(answer.status, 400) << path << ": " << answer.body;
    const Json error = parse_json(answer);
    EXPECT_TRUE(error["error"].get<std::string>().starts_with(message)) << path << ": " << answer.body;
    expect_alive();
  }
}

TEST_F(ServeTest, UnknownPathsAndTraversalGet404) {
  for (const char* path :
       {"/../../etc/passwd", "/vendor/../../x", "/nothing.js", "/api/nothing", "/api/game?id=x1"}) {
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
  const Json mated = parse_json(curl_get(url("/api/engine?play=f2f3,e7e5,g2g4,d8h4")));
  EXPECT_EQ(mated["score"], Json({{"mate", 0}}));
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
  EXPECT_EQ(info["filters"], Json::parse(R"({"speeds":false,"ratings":false,"months":false})"));
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

TEST(Serve, BadCommandLinesAreRefused) {
  TempDir dir;
  CommandResult missing = run_bookforge({"serve", "--db", (dir / "absent.sqlite").string(), "--port", "0"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("absent.sqlite"), std::string::npos) << missing.err;
  CommandResult port = run_bookforge({"serve", "--db", "x.sqlite", "--port", "70000"});
  EXPECT_EQ(port.exit_code, 2);
  EXPECT_NE(port.err.find("--port"), std::string::npos) << port.err;
}

}  // namespace
}  // namespace bookforge::test
