// UciClient against scripted engines: what it makes of the engine's lines when the engine
// reorders them between reports (Stockfish does, and stops in the middle of an iteration).
#include "engine/uci_client.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "engine/san.h"
#include "support/test_support.h"

namespace bookforge {
namespace {

// A UCI engine in a shell script: answers the handshake, then prints `search_output` for every
// "go". The script is written to `dir` and made executable.
std::string fake_engine(const test::TempDir& dir, const std::string& search_output) {
  const std::filesystem::path script = dir / "fake_engine.sh";
  test::write_file(script,
                   "#!/bin/sh\n"
                   "while read -r cmd rest; do\n"
                   "  case \"$cmd\" in\n"
                   "    uci) echo 'id name Fake'; echo uciok ;;\n"
                   "    isready) echo readyok ;;\n"
                   "    go) cat <<'EOF'\n" +
                       search_output +
                       "EOF\n"
                       "    ;;\n"
                       "    quit) exit 0 ;;\n"
                       "  esac\n"
                       "done\n");
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  return script.string();
}

SearchResult search_start_position(const std::string& engine) {
  auto client = UciClient::launch(engine, {});
  EXPECT_TRUE(client.ok()) << client.error().message;
  const Board board = *Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  SearchLimits limits;
  limits.nodes = 1000;
  limits.multipv = 3;
  for (const char* m : {"e2e4", "d2d4", "g1f3"}) limits.search_moves.push_back(uci_to_move(board, m));
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
  for (const PvLine& line : r.lines) out[move_to_uci(line.move)].push_back(line.score);
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
  EXPECT_EQ(move_to_uci(r.lines[0].move), "d2d4");  // the latest report's best line first
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
  EXPECT_EQ(move_to_uci(r.lines[0].move), "e2e4");
  EXPECT_EQ(move_to_uci(r.lines[1].move), "g1f3");
  EXPECT_EQ(move_to_uci(r.lines[2].move), "d2d4");
  EXPECT_EQ(r.lines[2].score, 5);
}

}  // namespace
}  // namespace bookforge
