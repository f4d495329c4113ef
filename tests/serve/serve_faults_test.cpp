// `bookforge serve` under real faults, end to end: a second server on a busy port, clients that
// send slowly and hold connections open, clients that leave during an engine search, two tabs
// of one browser, a `db add` while serving, methods and Host names the API does not serve, and
// requests too large or unframed. The server answers each at once with what it is (a JSON
// error where it refuses) and goes on answering everyone else.
#include <gtest/gtest.h>

#include <atomic>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "serve/curl_client.h"
#include "serve/raw_connection.h"
#include "serve/serve_process.h"
#include "support/test_support.h"

namespace bookforge::test {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using Json = nlohmann::ordered_json;

fs::path sample(const char* name) { return source_dir() / "data-samples" / name; }

// A store of the 2000 TWIC games and a server on it, for each test.
class ServeFaultsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    CommandResult added = run_bookforge({"db", "add", "--db", store(), sample("twic0920-2000.pgn").string()});
    ASSERT_EQ(added.exit_code, 0) << added.err;
    server_ = std::make_unique<ServeProcess>(std::vector<std::string>{"--db", store()});
    ASSERT_FALSE(server_->url().empty()) << "the server did not start";
  }
  std::string store() const { return (dir_ / "tree.sqlite").string(); }
  std::string url(const std::string& path_and_query) const {
    return "http://127.0.0.1:" + std::to_string(server_->port()) + path_and_query;
  }
  // A request sent on a connection of its own, its answer read later: the server has it at
  // once (no client program to start first).
  std::unique_ptr<RawConnection> send_raw(const std::string& target) const {
    auto connection = std::make_unique<RawConnection>(server_->port());
    EXPECT_TRUE(connection->send("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
    return connection;
  }

  TempDir dir_;
  std::unique_ptr<ServeProcess> server_;
};

TEST_F(ServeFaultsTest, ASecondServerOnABusyPortFailsSayingSo) {
  const std::string port = std::to_string(server_->port());
  // `timeout`: a server that started on the busy port would otherwise run on.
  CommandResult second =
      run_program({"timeout", "10", BOOKFORGE_BIN, "serve", "--db", store(), "--port", port});
  EXPECT_EQ(second.exit_code, 1) << second.out << second.err;
  EXPECT_NE(second.err.find("cannot listen on 127.0.0.1:" + port +
                            ": the port is in use (another bookforge serve?)"),
            std::string::npos)
      << second.err;
  EXPECT_EQ(curl_get(url("/api/info")).status, 200);
}

TEST_F(ServeFaultsTest, ClientsSendingSlowlyDoNotKeepOthersWaiting) {
  // More slow clients than the server has threads, each sending a header line now and then
  // (well within any per-read timeout) and never the end of its head.
  constexpr int kSlowClients = 100;
  std::vector<std::unique_ptr<RawConnection>> slow;
  for (int i = 0; i < kSlowClients; ++i) {
    slow.push_back(std::make_unique<RawConnection>(server_->port()));
    ASSERT_TRUE(slow.back()->send("GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n"));
  }
  std::atomic<bool> done{false};
  std::atomic<int> still_open{kSlowClients};
  std::thread trickle([&] {
    while (!done.load()) {
      std::this_thread::sleep_for(500ms);
      int open = 0;
      for (auto& connection : slow) open += connection->send("X-Slow: 1\r\n");
      still_open = open;
    }
  });
  // Answered at all while they are held: a server that lends its threads to connections
  // whose requests have not arrived answers nothing here until the slow clients give up.
  const HttpAnswer answer = curl_get(url("/api/explorer?play=e2e4"), {}, 3);
  const HttpAnswer info = curl_get(url("/api/info"), {}, 3);
  done = true;
  trickle.join();
  EXPECT_EQ(answer.status, 200) << "no answer within 3 s while " << kSlowClients << " slow clients were held";
  EXPECT_EQ(info.status, 200);
  EXPECT_EQ(still_open.load(), kSlowClients) << "the slow clients were dropped, not waited for";
}

TEST_F(ServeFaultsTest, CtrlCStopsTheServerWhileSlowClientsAndASearchHoldOn) {
  std::vector<std::unique_ptr<RawConnection>> slow;
  for (int i = 0; i < 20; ++i) {
    slow.push_back(std::make_unique<RawConnection>(server_->port()));
    ASSERT_TRUE(slow.back()->send("GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n"));
  }
  std::unique_ptr<RawConnection> search = send_raw("/api/engine?depth=30&movetime=5000");
  std::atomic<bool> done{false};
  std::thread trickle([&] {
    while (!done.load()) {
      for (auto& connection : slow) connection->send("X-Slow: 1\r\n");
      std::this_thread::sleep_for(200ms);
    }
  });
  std::this_thread::sleep_for(300ms);
  // A server that waits for its connections' requests to end before stopping waits for ever.
  const int exit_code = server_->interrupt(10s);
  done = true;
  trickle.join();
  EXPECT_EQ(exit_code, 0);
}

TEST_F(ServeFaultsTest, AnEngineSearchStopsWhenItsClientLeaves) {
  // A long search for a client that leaves at once...
  send_raw("/api/engine?depth=30&movetime=5000&client=gone")->close();
  std::this_thread::sleep_for(500ms);
  // ...holds no engine: the server's two engines serve two other clients at the same time.
  HttpAnswer first, second;
  std::thread other([&] { first = curl_get(url("/api/engine?depth=30&movetime=1000&client=one")); });
  second = curl_get(url("/api/engine?depth=30&movetime=1000&client=two"));
  other.join();
  EXPECT_EQ(first.status, 200) << first.body;
  EXPECT_EQ(second.status, 200) << second.body;
}

TEST_F(ServeFaultsTest, TwoTabsOfOneAddressKeepTheirOwnSearches) {
  // Tab one's search runs its full time although tab two asks meanwhile.
  std::unique_ptr<RawConnection> tab_one = send_raw("/api/engine?depth=30&movetime=1500&client=tab-one");
  std::this_thread::sleep_for(300ms);
  const Json tab_two = parse_json(curl_get(url("/api/engine?depth=30&movetime=200&client=tab-two")));
  EXPECT_EQ(tab_two["stoppedBy"], "movetime");
  const std::string one = tab_one->read_response(10s);
  EXPECT_EQ(status_of(one), 200) << one;
  EXPECT_EQ(Json::parse(body_of(one))["stoppedBy"], "movetime") << one;
  // The same tab asking again stops its own search.
  std::unique_ptr<RawConnection> again = send_raw("/api/engine?depth=30&movetime=5000&client=tab-one");
  std::this_thread::sleep_for(300ms);
  const Json newer = parse_json(curl_get(url("/api/engine?depth=1&client=tab-one")));
  EXPECT_EQ(newer["stoppedBy"], "depth");
  const std::string older = again->read_response(10s);
  EXPECT_EQ(Json::parse(body_of(older))["stoppedBy"], "newer request") << older;
}

TEST_F(ServeFaultsTest, InfoFollowsADbAddWhileServing) {
  const Json before = parse_json(curl_get(url("/api/info")));
  EXPECT_EQ(before["store"]["games"], 2000);
  EXPECT_EQ(before["store"]["sources"], 1);
  CommandResult added =
      run_bookforge({"db", "add", "--db", store(), sample("lichess-2016-05-1000.pgn").string()});
  ASSERT_EQ(added.exit_code, 0) << added.err;
  CommandResult stats = run_bookforge({"db", "stats", "--db", store(), "--json"});
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  const Json expected = Json::parse(stats.out);
  const Json after = parse_json(curl_get(url("/api/info")));
  EXPECT_EQ(after["store"]["games"], expected["games"]);
  EXPECT_EQ(after["store"]["positions"], expected["positions"]);
  EXPECT_EQ(after["store"]["sources"], 2);
  EXPECT_GT(after["store"]["games"].get<int>(), 2000);
  CommandResult explored = run_bookforge({"db", "explore", "--db", store(), "--json"});
  ASSERT_EQ(explored.exit_code, 0) << explored.err;
  EXPECT_EQ(parse_json(curl_get(url("/lichess")))["bookforge"]["games"], Json::parse(explored.out)["games"]);
}

TEST_F(ServeFaultsTest, MethodsOtherThanGetAndHeadGet405AtOnce) {
  for (const std::vector<std::string>& request :
       std::vector<std::vector<std::string>>{{"-X", "POST"},
                                             {"--data", "x=1"},
                                             {"-X", "PUT", "--data", "x"},
                                             {"-X", "DELETE"},
                                             {"-X", "OPTIONS"},
                                             {"-X", "PATCH", "--data", "x"}}) {
    // Without a body to wait for, a server that reads one waits its read timeout (5 s).
    const HttpAnswer answer = curl_get(url("/api/info"), request, 3);
    EXPECT_EQ(answer.status, 405) << request[1] << ": " << answer.body;
    EXPECT_NE(answer.headers.find("Allow: GET, HEAD"), std::string::npos) << answer.headers;
    EXPECT_TRUE(parse_json(answer)["error"].get<std::string>().starts_with("method ")) << answer.body;
  }
  const HttpAnswer head = curl_get(url("/api/info"), {"--head"}, 3);
  EXPECT_EQ(head.status, 200);
}

TEST_F(ServeFaultsTest, OnlyThisServersOwnNamesAreAnswered) {
  const std::string port = std::to_string(server_->port());
  for (const std::string& host :
       std::vector<std::string>{"localhost:" + port, "127.0.0.1", "[::1]:" + port}) {
    EXPECT_EQ(curl_get(url("/api/info"), {"-H", "Host: " + host}).status, 200) << host;
  }
  // What a page of another site pointing its name at 127.0.0.1 sends (DNS rebinding).
  for (const std::string& host :
       std::vector<std::string>{"evil.example:" + port, "evil.example", "127.0.0.1.evil.example"}) {
    const HttpAnswer answer = curl_get(url("/api/explorer?play=e2e4"), {"-H", "Host: " + host});
    EXPECT_EQ(answer.status, 421) << host << ": " << answer.body;
    EXPECT_NE(parse_json(answer)["error"].get<std::string>().find("localhost, 127.0.0.1, [::1]"),
              std::string::npos)
        << answer.body;
  }
}

TEST_F(ServeFaultsTest, OversizedAndUnframedRequestsGetTheirOwnStatus) {
  const HttpAnswer big = curl_get(url("/api/info"), {"-H", "X-Big: " + std::string(9000, 'y')}, 10);
  EXPECT_EQ(big.status, 431) << big.body;
  EXPECT_TRUE(parse_json(big).contains("error"));
  RawConnection chunked(server_->port());
  ASSERT_TRUE(
      chunked.send("GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: "
                   "chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"));
  const std::string refused = chunked.read_until_closed(10s);
  EXPECT_EQ(status_of(refused), 411) << refused;
  EXPECT_TRUE(Json::parse(body_of(refused)).contains("error")) << refused;
  EXPECT_EQ(curl_get(url("/api/info")).status, 200);
}

// A store damaged where the explorer reads (the positions' top games) but not where the server
// looks at start: the explorer answers 500 with a JSON error naming the damage, and the server
// says so on standard error, instead of answering from the damaged page.
TEST(ServeDamagedStore, AnswersFiveHundredAndLogsIt) {
  TempDir dir;
  const std::string db = (dir / "tree.sqlite").string();
  ASSERT_EQ(run_bookforge({"db", "add", "--db", db, sample("twic0920-2000.pgn").string()}).exit_code, 0);
  CommandResult pages =
      run_program({"python3", "-c",
                   "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(*[r[0] for r in "
                   "c.execute(\"SELECT pageno FROM dbstat WHERE name='position_games'\")])",
                   db});
  ASSERT_EQ(pages.exit_code, 0) << pages.err;
  std::string bytes = read_file(db);
  const size_t page_size = 65536;
  std::istringstream numbers(pages.out);
  for (size_t page = 0; numbers >> page;) bytes[(page - 1) * page_size + 200] ^= 0x40;
  write_file(db, bytes);

  const std::string log = (dir / "serve.err").string();
  ServeProcess server({"--db", db}, log);
  ASSERT_FALSE(server.url().empty()) << "the server did not start";
  const HttpAnswer answer = curl_get(
      "http://127.0.0.1:" + std::to_string(server.port()) + "/lichess?play=e2e4", {"-H", "Host: 127.0.0.1"});
  EXPECT_EQ(answer.status, 500) << answer.body;
  const Json body = Json::parse(answer.body);
  EXPECT_NE(body["error"].get<std::string>().find("damaged store: page"), std::string::npos) << answer.body;
  EXPECT_EQ(server.interrupt(), 0);
  const std::string said = read_file(log);
  EXPECT_NE(said.find("GET /lichess?play=e2e4: 500"), std::string::npos) << said;
  EXPECT_NE(said.find("damaged store"), std::string::npos) << said;
}
}  // namespace
}  // namespace bookforge::test
