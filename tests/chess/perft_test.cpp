// Perft against published node counts: a few embedded ones, and every position of the shared
// suites (../shared/data/perft), standard chess and Chess960. Depths are limited by a node
// budget per case so the default run stays fast; BOOKFORGE_LONG_TESTS=1 lifts it.
#include "chess/perft.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "chess/movegen.h"
#include "support/test_support.h"

namespace bookforge::chess {
namespace {

struct PerftCase {
  std::string fen;
  int depth;
  uint64_t nodes;
};

bool long_tests() {
  const char* v = std::getenv("BOOKFORGE_LONG_TESTS");
  return v && *v && std::string(v) != "0";
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) s.pop_back();
  size_t i = s.find_first_not_of(" \t");
  return i == std::string::npos ? "" : s.substr(i);
}

// "<fen> ;D1 20 ;D2 400 ..."
std::vector<PerftCase> read_epd(const std::filesystem::path& path) {
  std::vector<PerftCase> cases;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    size_t semi = line.find(';');
    const std::string fen = trim(line.substr(0, semi));
    while (semi != std::string::npos) {
      size_t next = line.find(';', semi + 1);
      const std::string field =
          trim(line.substr(semi + 1, next == std::string::npos ? std::string::npos : next - semi - 1));
      int depth;
      unsigned long long nodes;
      if (std::sscanf(field.c_str(), "D%d %llu", &depth, &nodes) == 2) cases.push_back({fen, depth, nodes});
      semi = next;
    }
  }
  return cases;
}

// python-chess blocks: "id ...", "epd <fen>", "perft <depth> <nodes>".
std::vector<PerftCase> read_perft_blocks(const std::filesystem::path& path) {
  std::vector<PerftCase> cases;
  std::ifstream in(path);
  std::string line, fen;
  while (std::getline(in, line)) {
    line = trim(line);
    int depth;
    unsigned long long nodes;
    if (line.rfind("epd ", 0) == 0)
      fen = trim(line.substr(4));
    else if (std::sscanf(line.c_str(), "perft %d %llu", &depth, &nodes) == 2)
      cases.push_back({fen, depth, nodes});
  }
  return cases;
}

// A Chess960 position written in Shredder-FEN (file letters) or X-FEN (KQkq naming a rook
// that is not on its corner or a king off its e-file square): the suites mix them with
// standard positions and do not say which is which.
bool is_chess960(const std::string& fen) {
  std::istringstream in(fen);
  std::string placement, side, castling;
  in >> placement >> side >> castling;
  if (castling.find_first_not_of("KQkq-") != std::string::npos) return true;
  auto board = Board::from_fen(fen);
  if (!board.ok()) return false;  // a real parse failure: let the test report it
  std::string rights;
  for (int i = 0; i < 4; ++i)
    if (board->castling_rights() & (1 << i)) rights += "KQkq"[i];
  return castling != "-" && rights.size() != castling.size();
}

struct SuiteResult {
  int run = 0, chess960 = 0;
};

// `all_chess960`: a suite of Chess960 positions only, some of which (king on e1, rooks in the
// corners) read the same in standard chess.
SuiteResult run_suite(const std::vector<PerftCase>& cases, uint64_t max_nodes, int max_depth = 99,
                      bool all_chess960 = false) {
  SuiteResult r;
  for (const PerftCase& c : cases) {
    if (c.nodes > max_nodes || c.depth > max_depth) continue;
    const bool chess960 = all_chess960 || is_chess960(c.fen);
    auto board = Board::from_fen(c.fen, chess960);
    if (!board.ok()) {
      ADD_FAILURE() << board.error().message;
      continue;
    }
    const uint64_t got = perft(*board, c.depth);
    EXPECT_EQ(got, c.nodes) << c.fen << " depth " << c.depth;
    ++r.run;
    r.chess960 += chess960;
  }
  return r;
}

constexpr uint64_t kDefaultBudget = 20'000'000;
constexpr uint64_t kLongBudget = 10'000'000'000ULL;
uint64_t budget() { return long_tests() ? kLongBudget : kDefaultBudget; }

// Published numbers (chessprogramming wiki "Perft Results"), so the check runs without the
// shared data too.
TEST(Perft, PublishedNumbers) {
  struct Row {
    const char* fen;
    std::vector<uint64_t> nodes;  // depth 1, 2, ...
  };
  const Row rows[] = {
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", {20, 400, 8902, 197281, 4865609}},
      {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", {48, 2039, 97862, 4085603}},
      {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", {14, 191, 2812, 43238, 674624, 11030083}},
      {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", {6, 264, 9467, 422333, 15833292}},
      {"r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", {6, 264, 9467, 422333}},
      {"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", {44, 1486, 62379, 2103487}},
      {"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
       {46, 2079, 89890, 3894594}},
  };
  for (const Row& row : rows) {
    Board board = *Board::from_fen(row.fen);
    for (size_t d = 0; d < row.nodes.size(); ++d)
      EXPECT_EQ(perft(board, int(d + 1)), row.nodes[d]) << row.fen << " depth " << d + 1;
    EXPECT_EQ(perft(board, 0), 1u);
  }
}

TEST(Perft, DivideSumsToPerftInGenerationOrder) {
  Board board = *Board::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  const auto divide = perft_divide(board, 3);
  MoveList list;
  generate_legal(board, list);
  ASSERT_EQ(divide.size(), size_t(list.size()));
  uint64_t sum = 0;
  for (size_t i = 0; i < divide.size(); ++i) {
    EXPECT_EQ(divide[i].first, list.moves[i]);
    sum += divide[i].second;
  }
  EXPECT_EQ(sum, 97862u);
  EXPECT_EQ(board.fen(), "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
}

TEST(Perft, StandardSuiteEthereal) {
  BOOKFORGE_SHARED_OR_SKIP(path, "perft/ethereal/standard.epd");
  auto cases = read_epd(path);
  ASSERT_GE(cases.size(), 700u);
  SuiteResult r = run_suite(cases, budget());
  EXPECT_EQ(r.chess960, 0);
  EXPECT_GT(r.run, 500);
}

TEST(Perft, StandardSuitePychess) {
  BOOKFORGE_SHARED_OR_SKIP(path, "perft/pychess/perftsuite.epd");
  SuiteResult r = run_suite(read_epd(path), budget());
  EXPECT_EQ(r.chess960, 0);
  EXPECT_GT(r.run, 500);
}

// Every position of a suite of Chess960 start positions to depth 4 (to the node budget in the
// long run: depth 6 of all 960 is 10^11 nodes). The number of cases run.
int run_chess960_starts(const std::vector<PerftCase>& cases) {
  return run_suite(cases, budget(), long_tests() ? 99 : 4, true).run;
}

// The 960 start positions of Ethereal's src/perft/fischer.epd (Shredder-FEN).
TEST(Perft, Chess960SuiteEthereal) {
  BOOKFORGE_SHARED_OR_SKIP(path, "perft/ethereal/fischer.epd");
  EXPECT_GE(run_chess960_starts(read_epd(path)), 960 * 4);
}

// The same 960 positions from python-chess's examples/perft/chess960.perft (cited there from
// the chessprogramming wiki's "Chess960 Perft Results").
TEST(Perft, Chess960SuitePythonChess) {
  BOOKFORGE_SHARED_OR_SKIP(path, "perft/python-chess/chess960.perft");
  EXPECT_GE(run_chess960_starts(read_perft_blocks(path)), 960 * 4);
}

// pychess's testing/gamefiles/frc_perftsuite.epd: 9 middlegame and start positions (rooks
// beside the king, promotions onto castling squares), to the node budget (at least depth 4).
TEST(Perft, Chess960SuitePychess) {
  BOOKFORGE_SHARED_OR_SKIP(path, "perft/pychess/frc_perftsuite.epd");
  SuiteResult r = run_suite(read_epd(path), budget(), long_tests() ? 99 : 5, true);
  EXPECT_GE(r.run, 9 * 4);
}

TEST(Perft, StandardSuiteSunfish) {
  BOOKFORGE_SHARED_OR_SKIP(path, "perft/sunfish/perft.epd");
  SuiteResult r = run_suite(read_epd(path), long_tests() ? kLongBudget : 1'000'000);
  EXPECT_GT(r.run, 500);
}

// Martin Sedlak's positions: illegal en passant, discovered checks, castling through check.
TEST(Perft, SedlakTrickySuite) {
  BOOKFORGE_SHARED_OR_SKIP(path, "perft/pychess/perftsuite2.epd");
  SuiteResult r = run_suite(read_epd(path), kLongBudget);
  EXPECT_EQ(r.chess960, 0);
  EXPECT_EQ(r.run, 32);
}

TEST(Perft, PythonChessTricky) {
  BOOKFORGE_SHARED_OR_SKIP(path, "perft/python-chess/tricky.perft");
  SuiteResult r = run_suite(read_perft_blocks(path), budget());
  EXPECT_GT(r.run, 60);
  EXPECT_GE(r.chess960, 20);  // the xfen-* and king-on-h positions
}

TEST(Perft, ScalachessTricky) {
  BOOKFORGE_SHARED_OR_SKIP(path, "perft/scalachess/tricky.perft");
  SuiteResult r = run_suite(read_perft_blocks(path), budget());
  EXPECT_GT(r.run, 60);
  EXPECT_GE(r.chess960, 20);
}

// 6,838 random positions: all to depth 3, and every 16th to the node budget (depth 5 at most
// in the long run: depth 6 of all of them is 4 * 10^12 nodes).
TEST(Perft, RandomPositions) {
  BOOKFORGE_SHARED_OR_SKIP(path, "perft/python-chess/random.perft");
  const auto cases = read_perft_blocks(path);
  ASSERT_GT(cases.size(), 40000u);
  std::vector<PerftCase> shallow, sample;
  std::string last_fen;
  int position = -1;
  for (const PerftCase& c : cases) {
    if (c.fen != last_fen) {
      ++position;
      last_fen = c.fen;
    }
    if (c.depth <= 3)
      shallow.push_back(c);
    else if (long_tests() || position % 16 == 0)
      sample.push_back(c);
  }
  SuiteResult a = run_suite(shallow, kLongBudget);
  SuiteResult b = run_suite(sample, long_tests() ? kLongBudget : 5'000'000, 5);
  EXPECT_GT(a.run, 20000);
  EXPECT_GT(b.run, 400);
  EXPECT_EQ(a.chess960 + b.chess960, 0);
}

}  // namespace
}  // namespace bookforge::chess
