// The book quality benchmark (bench/book_quality.cpp) can fail: a book that gives a blunder most
// of the weight must score badly, and the same book without it must not; and it charges a book
// nothing for the judge's own line. Runs the real book_quality binary with Stockfish at a low
// node count on four-position books; skipped when Stockfish or the benchmark
// (BOOKFORGE_BUILD_BENCH off) is absent.
#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "book/polyglot/format.h"
#include "chess/board.h"
#include "chess/movegen.h"
#include "chess/san.h"
#include "support/test_support.h"

namespace bookforge::test {
namespace {

constexpr const char* kStockfish = "/usr/games/stockfish";

std::filesystem::path book_quality_bin() {
  return std::filesystem::path(BOOKFORGE_BIN).parent_path() / "book_quality";
}

// A book that plays `line` (UCI, weight 10 each) from the start position and then `last_moves`
// (UCI, weight) in the position it reaches.
void write_book(const std::filesystem::path& path, const std::vector<std::string>& line,
                const std::vector<std::pair<std::string, uint16_t>>& last_moves) {
  std::vector<book::PolyglotEntry> entries;
  chess::Board board;
  for (const std::string& uci : line) {
    const chess::Move m = chess::uci_to_move(board, uci);
    entries.push_back({board.key(), chess::move_to_polyglot(m), 10, 0});
    chess::UndoInfo undo;
    board.make_move(m, undo);
  }
  for (const auto& [uci, weight] : last_moves)
    entries.push_back({board.key(), chess::move_to_polyglot(chess::uci_to_move(board, uci)), weight, 0});
  const std::vector<unsigned char> bytes = polyglot_bytes(entries);
  write_file(path, std::string(bytes.begin(), bytes.end()));
}

// A book that plays 1.e4 e5 2.Nf3 and then `black_moves` for Black.
void write_book(const std::filesystem::path& path,
                const std::vector<std::pair<std::string, uint16_t>>& black_moves) {
  write_book(path, {"e2e4", "e7e5", "g1f3"}, black_moves);
}

struct Row {
  double regret = 0, over_50 = 0, over_100 = 0;
  double plies = 0;           // expected plies played from the book
  double regret_by_eval = 0;  // the regret against the position's own eval
  double floor_by_eval = 0;   // the judge's own move's regret by that reading
};

// label -> figures, from the --tsv output.
std::map<std::string, Row> parse_rows(const std::string& tsv) {
  std::map<std::string, Row> rows;
  std::istringstream lines(tsv);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string label;
    double v[18];
    std::getline(fields, label, '\t');
    for (double& x : v) fields >> x;
    if (fields) rows[label] = {v[0], v[3], v[6], v[11], v[12], v[15]};
  }
  return rows;
}

// book_quality's command line up to the books: Stockfish at a low node count, with `cache` as
// its eval cache.
std::vector<std::string> judge_args(const std::filesystem::path& cache) {
  return {book_quality_bin().string(),
          "--engine",
          kStockfish,
          "--nodes",
          "20000",
          "--resamples",
          "200",
          "--tsv",
          "--cache",
          cache.string()};
}

TEST(BookQuality, ABlunderWithMostOfTheWeightScoresBadly) {
  if (!std::filesystem::exists(kStockfish)) GTEST_SKIP() << "no stockfish";
  if (!std::filesystem::exists(book_quality_bin())) GTEST_SKIP() << "book_quality not built (benchmarks off)";
  TempDir tmp;
  write_book(tmp / "honest.bin", {{"b8c6", 10}});
  // 2...Qg5?? loses the queen to 3.Nxg5.
  write_book(tmp / "doctored.bin", {{"d8g5", 60}, {"b8c6", 10}});
  std::vector<std::string> args = judge_args(tmp / "evals.tsv");
  args.push_back("honest=" + (tmp / "honest.bin").string());
  args.push_back("doctored=" + (tmp / "doctored.bin").string());
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
  // Against the position's own eval, the judge's own move is judged on the same four positions
  // for both books, and the blunder is far above that floor.
  EXPECT_DOUBLE_EQ(honest.floor_by_eval, doctored.floor_by_eval) << first.out;
  EXPECT_GE(honest.floor_by_eval, 0) << first.out;
  EXPECT_LT(honest.floor_by_eval, 30) << first.out;
  EXPECT_GT(doctored.regret_by_eval, doctored.floor_by_eval + 100) << first.out;

  // The second run reads every eval from the cache and prints the same figures.
  const CommandResult second = run_program(args);
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(second.out, first.out);
  EXPECT_NE(second.err.find("0 searches"), std::string::npos) << second.err;
}

// The judge's best move in `board`, from the cache book_quality wrote ("" when not there).
std::string cached_best_move(const std::filesystem::path& cache, const chess::Board& board) {
  std::string fen = board.fen();
  for (int field = 0; field < 2; ++field) fen.erase(fen.rfind(' '));  // the move counters
  std::istringstream lines(read_file(cache));
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> fields;
    std::istringstream split(line);
    for (std::string f; std::getline(split, f, '\t');) fields.push_back(f);
    if (fields.size() == 5 && fields[2] == fen) return fields[4];
  }
  return "";
}

// A book that plays the judge's own best move, and only it, in every position has no regret:
// moves are compared with moves, so the gap between a position's eval and the eval after its
// best move (the floor of the reading against the position's eval) is not charged to the book.
TEST(BookQuality, TheJudgesOwnLineHasNoRegret) {
  if (!std::filesystem::exists(kStockfish)) GTEST_SKIP() << "no stockfish";
  if (!std::filesystem::exists(book_quality_bin())) GTEST_SKIP() << "book_quality not built (benchmarks off)";
  TempDir tmp;
  const std::filesystem::path cache = tmp / "evals.tsv";
  // Grow the line a move at a time: each run judges the position at its end (through a
  // placeholder move, its first legal one) and so caches the judge's best move there.
  std::vector<std::string> line;
  chess::Board board;
  for (int ply = 0; ply < 4; ++ply) {
    chess::MoveList legal;
    chess::generate_legal(board, legal);
    write_book(tmp / "line.bin", line, {{chess::move_to_uci(legal.moves[0]), 1}});
    std::vector<std::string> args = judge_args(cache);
    args.push_back((tmp / "line.bin").string());
    const CommandResult r = run_program(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string best = cached_best_move(cache, board);
    ASSERT_FALSE(best.empty()) << board.fen() << "\n" << read_file(cache);
    line.push_back(best);
    chess::UndoInfo undo;
    board.make_move(chess::uci_to_move(board, best), undo);
  }
  write_book(tmp / "line.bin", line, {});
  std::vector<std::string> args = judge_args(cache);
  args.push_back("line=" + (tmp / "line.bin").string());
  const CommandResult r = run_program(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = parse_rows(r.out);
  ASSERT_EQ(rows.count("line"), 1u) << r.out;
  const Row& row = rows.at("line");
  EXPECT_DOUBLE_EQ(row.plies, 4) << r.out;
  EXPECT_DOUBLE_EQ(row.regret, 0) << r.out;
  // By the position's eval, a one-move book's regret is the judge's own move's: its floor.
  EXPECT_DOUBLE_EQ(row.regret_by_eval, row.floor_by_eval) << r.out;
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
