// UciClient against scripted engines: what it makes of the engine's lines when the engine
// reorders them between reports (Stockfish does, and stops in the middle of an iteration), and
// how long it waits for an engine that is starved of CPU, busy without answering, or asleep.
#include "engine/uci_client.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>

#include "chess/san.h"
#include "support/test_support.h"

namespace bookforge::engine {
namespace {

// A UCI engine in a shell script: writes its process id to `dir`/engine.pid, runs `on_uci` for
// "uci", answers "isready", and runs `on_go` for every "go". The script is written to `dir` and
// made executable.
std::string scripted_engine(const test::TempDir& dir, const std::string& on_go,
                            const std::string& on_uci = "echo 'id name Fake'; echo uciok") {
  const std::filesystem::path script = dir / "fake_engine.sh";
  test::write_file(script,
                   "#!/bin/sh\n"
                   "echo $$ > \"$(dirname \"$0\")/engine.pid\"\n"
                   "while read -r cmd rest; do\n"
                   "  case \"$cmd\" in\n"
                   "    uci) " +
                       on_uci +
                       " ;;\n"
                       "    isready) echo readyok ;;\n"
                       "    go) " +
                       on_go +
                       "\n"
                       "    ;;\n"
                       "    quit) exit 0 ;;\n"
                       "  esac\n"
                       "done\n");
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  return script.string();
}

// A scripted engine that prints `search_output` for every "go".
std::string fake_engine(const test::TempDir& dir, const std::string& search_output) {
  return scripted_engine(dir, "cat <<'EOF'\n" + search_output + "EOF");
}

pid_t engine_pid(const test::TempDir& dir) {
  std::ifstream in(dir / "engine.pid");
  pid_t pid = -1;
  in >> pid;
  return pid;
}

SearchResult search_start_position(const std::string& engine) {
  auto client = UciClient::launch(engine, {});
  EXPECT_TRUE(client.ok()) << client.error().message;
  const chess::Board board =
      *chess::Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  SearchLimits limits;
  limits.nodes = 1000;
  limits.multipv = 3;
  for (const char* m : {"e2e4", "d2d4", "g1f3"}) limits.search_moves.push_back(chess::uci_to_move(board, m));
  auto result = (*client)->search(board, limits, 5000);
  EXPECT_TRUE(result.ok()) << result.error().message;
  return result.ok() ? *result : SearchResult{};
}

// Every script's first iteration: e2e4 ahead of d2d4 ahead of g1f3.
constexpr const char* kFirstIteration =
    "info depth 1 multipv 1 score cp 30 nodes 100 pv e2e4\n"
    "info depth 1 multipv 2 score cp 20 nodes 100 pv d2d4\n"
    "info depth 1 multipv 3 score cp 10 nodes 100 pv g1f3\n";

std::map<std::string, std::vector<Score>> scores_by_move(const SearchResult& r) {
  std::map<std::string, std::vector<Score>> out;
  for (const PvLine& line : r.lines) out[chess::move_to_uci(line.move)].push_back(line.score);
  return out;
}

// The engine stops after the first line of its second iteration, whose best move was second in
// the first one: every move must still come back once, with its latest score.
TEST(UciClient, LinesAreKeptByMoveWhenTheEngineReordersThem) {
  test::TempDir dir;
  const SearchResult r = search_start_position(fake_engine(
      dir, std::string(kFirstIteration) + "info depth 2 multipv 1 score cp 35 nodes 900 pv d2d4 d7d5\n"
                                          "bestmove d2d4\n"));
  const auto scores = scores_by_move(r);
  ASSERT_EQ(scores.size(), 3u);
  EXPECT_EQ(scores.at("d2d4"), std::vector<Score>{35});
  EXPECT_EQ(scores.at("e2e4"), std::vector<Score>{30});
  EXPECT_EQ(scores.at("g1f3"), std::vector<Score>{10});
  ASSERT_EQ(r.lines.size(), 3u);
  EXPECT_EQ(chess::move_to_uci(r.lines[0].move), "d2d4");  // the latest report's best line first
}

// A line reported with a bound is not a score; the move's last exact score stands, and the move
// ranked in its place is not duplicated.
TEST(UciClient, BoundedLineKeepsTheMovesLastExactScore) {
  test::TempDir dir;
  const SearchResult r = search_start_position(fake_engine(
      dir, std::string(kFirstIteration) + "info depth 2 multipv 1 score cp 35 nodes 900 pv d2d4 d7d5\n"
                                          "info depth 2 multipv 2 score cp 12 upperbound nodes 900 pv e2e4\n"
                                          "info depth 2 multipv 3 score cp 8 nodes 900 pv g1f3\n"
                                          "bestmove d2d4\n"));
  const auto scores = scores_by_move(r);
  ASSERT_EQ(scores.size(), 3u);
  EXPECT_EQ(scores.at("d2d4"), std::vector<Score>{35});
  EXPECT_EQ(scores.at("e2e4"), std::vector<Score>{30});
  EXPECT_EQ(scores.at("g1f3"), std::vector<Score>{8});
}

// Moves that fell out of the top lines in a later iteration are not reported beside the lines
// that replaced them.
TEST(UciClient, NoMoreLinesThanAsked) {
  test::TempDir dir;
  const SearchResult r = search_start_position(
      fake_engine(dir, std::string(kFirstIteration) + "info depth 2 multipv 1 score cp 31 nodes 900 pv e2e4\n"
                                                      "info depth 2 multipv 2 score cp 25 nodes 900 pv g1f3\n"
                                                      "info depth 2 multipv 3 score cp 5 nodes 900 pv d2d4\n"
                                                      "bestmove e2e4\n"));
  ASSERT_EQ(r.lines.size(), 3u);
  EXPECT_EQ(chess::move_to_uci(r.lines[0].move), "e2e4");
  EXPECT_EQ(chess::move_to_uci(r.lines[1].move), "g1f3");
  EXPECT_EQ(chess::move_to_uci(r.lines[2].move), "d2d4");
  EXPECT_EQ(r.lines[2].score, 5);
}

const std::string kStart(chess::kStartFen);

SearchLimits node_limit() {
  SearchLimits limits;
  limits.nodes = 1000;
  return limits;
}

// An engine stopped (SIGSTOP) for longer than the grace gets no CPU meanwhile, as an engine at
// nice 19 beside a compile does: it is starved, not hung, and its answer is waited for.
TEST(UciClient, StarvedEngineIsWaitedFor) {
  test::TempDir dir;
  const std::string engine = fake_engine(dir, std::string(kFirstIteration) + "bestmove e2e4\n");
  auto client = UciClient::launch(engine, {});
  ASSERT_TRUE(client.ok()) << client.error().message;
  const pid_t pid = engine_pid(dir);
  ASSERT_GT(pid, 0);
  ASSERT_EQ(::kill(pid, SIGSTOP), 0);
  std::thread resume([pid] {
    std::this_thread::sleep_for(std::chrono::seconds(3));
    ::kill(pid, SIGCONT);
  });
  auto result = (*client)->search(test::board_of(kStart), node_limit(), /*grace_ms=*/1000);
  resume.join();
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(chess::move_to_uci(result->best_move), "e2e4");
}

// The message of a search from the start position with a small grace that must fail; it must
// say which engine failed to send which reply for which position.
std::string failed_search_message(const std::string& engine) {
  auto client = UciClient::launch(engine, {});
  if (!client.ok()) return "launch failed: " + client.error().message;
  auto result = (*client)->search(test::board_of(kStart), node_limit(), /*grace_ms=*/300);
  if (result.ok()) return "the search succeeded";
  const std::string& message = result.error().message;
  EXPECT_NE(message.find("no bestmove from engine " + engine + " for " + kStart + " after "),
            std::string::npos)
      << message;
  return message;
}

// An engine that spins after "go" and never answers is given up once it has used the grace in
// CPU time, and the message says how long it was waited for.
TEST(UciClient, BusyEngineThatNeverAnswersFails) {
  test::TempDir dir;
  const std::string message = failed_search_message(scripted_engine(dir, "while :; do :; done"));
  EXPECT_NE(message.find(" s of its CPU time ("), std::string::npos) << message;
  EXPECT_NE(message.find(" s wall)"), std::string::npos) << message;
}

// An engine that goes to sleep after "go" uses no CPU at all: the wall-clock backstop ends the
// wait.
TEST(UciClient, SleepingEngineFails) {
  test::TempDir dir;
  const std::string message = failed_search_message(scripted_engine(dir, "exec sleep 600"));
  EXPECT_NE(message.find(" wall, idle (no CPU used) for the last "), std::string::npos) << message;
}

// The handshake is bounded the same way: a program that spins instead of saying "uciok" fails
// to launch, saying what it did not send.
TEST(UciClient, BusyEngineWithoutUciokFailsToLaunch) {
  test::TempDir dir;
  const std::string engine = scripted_engine(dir, "", "while :; do :; done");
  auto client = UciClient::launch(engine, {}, /*timeout_ms=*/300);
  ASSERT_FALSE(client.ok());
  const std::string& message = client.error().message;
  EXPECT_NE(message.find("no uciok from engine " + engine + " after "), std::string::npos) << message;
  EXPECT_NE(message.find(" s of its CPU time ("), std::string::npos) << message;
}

}  // namespace
}  // namespace bookforge::engine

namespace bookforge::engine {
namespace {

// Stockfish's "eval": a table of terms, then the final line, in pawns from White's view, or
// "none" in check.
TEST(UciClient, StaticEvalReadsTheFinalEvaluationLine) {
  test::TempDir dir;
  const std::filesystem::path script = dir / "eval_engine.sh";
  test::write_file(script,
                   "#!/bin/sh\n"
                   "while read -r cmd rest; do\n"
                   "  case \"$cmd\" in\n"
                   "    uci) echo 'id name Fake'; echo uciok ;;\n"
                   "    isready) echo readyok ;;\n"
                   "    position) fen=\"$rest\" ;;\n"
                   "    eval) echo ' Term | White | Black'; echo 'NNUE evaluation  +9.99 (white side)';\n"
                   "          case \"$fen\" in\n"
                   "            *' b '*) echo 'Final evaluation: none (in check)' ;;\n"
                   "            *) echo 'Final evaluation       -0.35 (white side) [with scaled NNUE]' ;;\n"
                   "          esac ;;\n"
                   "    quit) exit 0 ;;\n"
                   "  esac\n"
                   "done\n");
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  auto client = UciClient::launch(script.string(), {});
  ASSERT_TRUE(client.ok()) << client.error().message;
  Result<std::optional<Score>> white = (*client)->static_eval(test::board_of(std::string(chess::kStartFen)));
  ASSERT_TRUE(white.ok()) << white.error().message;
  EXPECT_EQ(*white, std::optional<Score>(-35));
  // (The script answers "none" for Black to move.)
  Result<std::optional<Score>> checked =
      (*client)->static_eval(test::board_of("4k3/8/8/8/8/8/8/4KR2 b - - 0 1"));
  ASSERT_TRUE(checked.ok()) << checked.error().message;
  EXPECT_EQ(*checked, std::nullopt);
}

}  // namespace
}  // namespace bookforge::engine
