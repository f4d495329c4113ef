// The book quality benchmark (bench/book_quality.cpp) can fail: a book that gives a blunder most
// of the weight must score badly, and the same book without it must not. Runs the real
// book_quality binary with Stockfish at a low node count on a four-position book; skipped when
// Stockfish or the benchmark (BOOKFORGE_BUILD_BENCH off) is absent.
#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "book/polyglot/format.h"
#include "engine/board.h"
#include "engine/san.h"
#include "support/test_support.h"

namespace bookforge::test {
namespace {

constexpr const char* kStockfish = "/usr/games/stockfish";

std::filesystem::path book_quality_bin() {
  return std::filesystem::path(BOOKFORGE_BIN).parent_path() / "book_quality";
}

// A book that plays 1.e4 e5 2.Nf3 and then `black_moves` (UCI, weight) for Black.
void write_book(const std::filesystem::path& path,
                const std::vector<std::pair<std::string, uint16_t>>& black_moves) {
  std::vector<book::PolyglotEntry> entries;
  Board board;
  for (const char* uci : {"e2e4", "e7e5", "g1f3"}) {
    const Move m = uci_to_move(board, uci);
    entries.push_back({board.key(), move_to_polyglot(m), 10, 0});
    UndoInfo undo;
    board.make_move(m, undo);
  }
  for (const auto& [uci, weight] : black_moves)
    entries.push_back({board.key(), move_to_polyglot(uci_to_move(board, uci)), weight, 0});
  const std::vector<unsigned char> bytes = polyglot_bytes(entries);
  write_file(path, std::string(bytes.begin(), bytes.end()));
}

struct Row {
  double regret = 0, over_50 = 0, over_100 = 0;
  double plies = 0;  // expected plies played from the book
  double floor = 0;  // the regret of the judge's own move on the same positions
};

// label -> figures, from the --tsv output.
std::map<std::string, Row> parse_rows(const std::string& tsv) {
  std::map<std::string, Row> rows;
  std::istringstream lines(tsv);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string label;
    double v[15];
    std::getline(fields, label, '\t');
    for (double& x : v) fields >> x;
    if (fields) rows[label] = {v[0], v[3], v[6], v[11], v[12]};
  }
  return rows;
}

TEST(BookQuality, ABlunderWithMostOfTheWeightScoresBadly) {
  if (!std::filesystem::exists(kStockfish)) GTEST_SKIP() << "no stockfish";
  if (!std::filesystem::exists(book_quality_bin())) GTEST_SKIP() << "book_quality not built (benchmarks off)";
  TempDir tmp;
  write_book(tmp / "honest.bin", {{"b8c6", 10}});
  // 2...Qg5?? loses the queen to 3.Nxg5.
  write_book(tmp / "doctored.bin", {{"d8g5", 60}, {"b8c6", 10}});
  const std::vector<std::string> args = {book_quality_bin().string(),
                                         "--engine",
                                         kStockfish,
                                         "--nodes",
                                         "20000",
                                         "--resamples",
                                         "200",
                                         "--tsv",
                                         "--cache",
                                         (tmp / "evals.tsv").string(),
                                         "honest=" + (tmp / "honest.bin").string(),
                                         "doctored=" + (tmp / "doctored.bin").string()};
  const CommandResult first = run_program(args);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const auto rows = parse_rows(first.out);
  ASSERT_EQ(rows.size(), 2u) << first.out;

  // Four positions, each reached once; 6/7 of the play in the last one goes to a queen blunder.
  const Row& honest = rows.at("honest");
  const Row& doctored = rows.at("doctored");
  EXPECT_LT(honest.regret, 30) << first.out;
  EXPECT_EQ(honest.over_100, 0) << first.out;
  EXPECT_GT(doctored.regret, 100) << first.out;
  EXPECT_GT(doctored.over_100, 15) << first.out;
  EXPECT_GT(doctored.over_50, 15) << first.out;
  // Both books last four plies: the column that shows a book shrinking reads the whole walk.
  EXPECT_DOUBLE_EQ(honest.plies, 4) << first.out;
  EXPECT_DOUBLE_EQ(doctored.plies, 4) << first.out;
  // The judge's own move is judged on the same four positions for both books, and the blunder
  // is far above that floor.
  EXPECT_DOUBLE_EQ(honest.floor, doctored.floor) << first.out;
  EXPECT_GE(honest.floor, 0) << first.out;
  EXPECT_LT(honest.floor, 30) << first.out;
  EXPECT_GT(doctored.regret, doctored.floor + 100) << first.out;

  // The second run reads every eval from the cache and prints the same figures.
  const CommandResult second = run_program(args);
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(second.out, first.out);
  EXPECT_NE(second.err.find("0 searches"), std::string::npos) << second.err;
}

TEST(BookQuality, AgreementWithTheJudgeIsMeasuredAndOldCachesStillServe) {
  if (!std::filesystem::exists(kStockfish)) GTEST_SKIP() << "no stockfish";
  if (!std::filesystem::exists(book_quality_bin())) GTEST_SKIP() << "book_quality not built (benchmarks off)";
  TempDir tmp;
  write_book(tmp / "book.bin", {{"b8c6", 10}});
  // A cache from before best moves were kept: the start position's eval, with no best move.
  const std::string start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
  write_file(tmp / "evals.tsv", "Stockfish 15.1\t20000\t" + start + "\t77\n");
  const CommandResult r =
      run_program({book_quality_bin().string(), "--engine", kStockfish, "--nodes", "20000", "--cache",
                   (tmp / "evals.tsv").string(), "--agreement-depth", "3", "--agreement-out",
                   (tmp / "agreement.txt").string(), (tmp / "book.bin").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string line = read_file(tmp / "agreement.txt");
  EXPECT_NE(line.find("embedded engine at depth 3 on the 4 positions judged: the judge's best move in "),
            std::string::npos)
      << line;
  EXPECT_NE(line.find("mean regret of its move "), std::string::npos) << line;
  // The start position was searched again for its best move, and its cached eval kept.
  const std::string cache = read_file(tmp / "evals.tsv");
  EXPECT_NE(cache.find("\t" + start + "\t77\t"), std::string::npos) << cache;
}

TEST(BookQuality, ACorruptCacheIsNamedWithItsLine) {
  if (!std::filesystem::exists(kStockfish)) GTEST_SKIP() << "no stockfish";
  if (!std::filesystem::exists(book_quality_bin())) GTEST_SKIP() << "book_quality not built (benchmarks off)";
  TempDir tmp;
  write_book(tmp / "book.bin", {{"b8c6", 10}});
  write_file(tmp / "evals.tsv", "Stockfish 15.1\t20000\tsome position\t12\nnot a cache line\n");
  const CommandResult r =
      run_program({book_quality_bin().string(), "--engine", kStockfish, "--nodes", "20000", "--cache",
                   (tmp / "evals.tsv").string(), (tmp / "book.bin").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("evals.tsv:2:"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace bookforge::test
