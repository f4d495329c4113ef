// `bookforge exits --engine` and `build --exit-engine`: a book's exit positions searched by an
// external UCI engine (Stockfish at a low depth, skipped when absent; a scripted engine that
// dies for the failures), from the real binary.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "book/polyglot/reader.h"
#include "support/test_support.h"

namespace bookforge {
namespace {

constexpr const char* kStockfish = "/usr/games/stockfish";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The number after `key` in an EPD line ("ce ", "acd ", "white ").
int field(const std::string& line, const std::string& key) {
  const size_t at = line.find(key);
  EXPECT_NE(at, std::string::npos) << key << " in " << line;
  return at == std::string::npos ? 0 : std::stoi(line.substr(at + key.size()));
}

class ExitsEngine : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string games = (test::source_dir() / "data-samples" / "twic0920-2000.pgn").string();
    const auto r = test::run_bookforge({"build", games, "--min-move-games", "20", "-q", "-o", book_});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }

  test::CommandResult exits(const std::string& output, const std::vector<std::string>& more) {
    std::vector<std::string> args = {"exits", book_, "-o", output, "--depth", "6"};
    args.insert(args.end(), more.begin(), more.end());
    return test::run_bookforge(args);
  }

  // An engine that answers the handshake and the first two searches (no move found), then
  // exits in the middle of the third.
  std::string dying_engine() {
    const std::filesystem::path script = dir_ / "dying-engine";
    test::write_file(
        script,
        "#!/bin/sh\n"
        "searches=0\n"
        "while read -r command rest; do\n"
        "  case \"$command\" in\n"
        "    uci) echo 'id name Dying'; echo uciok ;;\n"
        "    isready) echo readyok ;;\n"
        "    go) searches=$((searches + 1)); [ $searches -ge 3 ] && exit 3; echo 'bestmove 0000' ;;\n"
        "    quit) exit 0 ;;\n"
        "  esac\n"
        "done\n");
    std::filesystem::permissions(script, std::filesystem::perms::owner_all);
    return script.string();
  }

  test::TempDir dir_;
  const std::string book_ = (dir_ / "book.bin").string();
};

TEST_F(ExitsEngine, StockfishScoresEveryExitAndTheBandKeepsItsOwn) {
  if (!std::filesystem::exists(kStockfish)) GTEST_SKIP() << "no stockfish";
  const std::string all_path = (dir_ / "all.epd").string();
  const auto all = exits(all_path, {"--engine", kStockfish, "--threads", "2"});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  const std::vector<std::string> lines = lines_of(test::read_file(all_path));
  // One line per exit, each a position the book has no move for.
  EXPECT_NE(all.out.find(": " + std::to_string(lines.size()) + " of the book's " +
                         std::to_string(lines.size()) + " exit positions"),
            std::string::npos)
      << all.out;
  ASSERT_GT(lines.size(), 100u);
  auto book = book::PolyglotBook::open(book_);
  ASSERT_TRUE(book.ok());
  size_t plausible = 0;
  for (const std::string& line : lines) {
    const size_t ce = line.find(" ce ");
    ASSERT_NE(ce, std::string::npos) << line;
    const chess::Board b = test::board_of(line.substr(0, ce) + " 0 1");
    EXPECT_TRUE(book->find(b.key()).empty()) << line;
    EXPECT_NE(line.find("c0 \"bookforge exit, Stockfish"), std::string::npos) << line;
    EXPECT_EQ(field(line, "; acd "), 6) << line;  // the depth Stockfish reported
    // ce from the side to move, the comment's score from White's.
    const int white = field(line, ", white ");
    EXPECT_EQ(field(line, " ce "), b.side_to_move() == chess::kWhite ? white : -white) << line;
    if (std::abs(white) < 1000) ++plausible;
  }
  EXPECT_GE(plausible * 10, lines.size() * 9);

  // The band keeps exactly the lines of the whole list within it, in the same order.
  const std::string band_path = (dir_ / "band.epd").string();
  const auto band = exits(band_path, {"--engine", kStockfish, "--eval-min", "-30", "--eval-max", "60", "-q"});
  ASSERT_EQ(band.exit_code, 0) << band.err;
  std::vector<std::string> within;
  for (const std::string& line : lines)
    if (const int white = field(line, ", white "); white >= -30 && white <= 60) within.push_back(line);
  EXPECT_EQ(lines_of(test::read_file(band_path)), within);
  EXPECT_GT(within.size(), 10u);
  EXPECT_LT(within.size(), lines.size());
}

// Stockfish at a fixed depth, one thread and a new game before every position, gives the same
// scores in any batch on any thread: the batches' files, concatenated, are the whole file.
TEST_F(ExitsEngine, StockfishBatchesConcatenatedAreTheWholeAndBuildWritesTheSame) {
  if (!std::filesystem::exists(kStockfish)) GTEST_SKIP() << "no stockfish";
  const std::vector<std::string> band = {"--engine",   kStockfish, "--eval-min", "-100",
                                         "--eval-max", "100",      "-q"};
  const std::string whole_path = (dir_ / "whole.epd").string();
  ASSERT_EQ(exits(whole_path, band).exit_code, 0);
  const std::string whole = test::read_file(whole_path);
  std::string joined;
  for (int i = 0; i < 3; ++i) {
    const std::string part = (dir_ / ("part" + std::to_string(i))).string();
    std::vector<std::string> more = band;
    more.insert(more.end(), {"--batch", std::to_string(i) + "/3", "--threads", "2"});
    const auto r = exits(part, more);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    joined += test::read_file(part);
  }
  EXPECT_EQ(joined, whole);

  const std::string games = (test::source_dir() / "data-samples" / "twic0920-2000.pgn").string();
  const std::string built = (dir_ / "built.epd").string();
  const auto r =
      test::run_bookforge({"build", games, "--min-move-games", "20", "-q", "-o",
                           (dir_ / "again.bin").string(), "--exits", built, "--exit-engine", kStockfish,
                           "--exit-depth", "6", "--exit-eval-min", "-100", "--exit-eval-max", "100"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::read_file(built), whole);
}

TEST_F(ExitsEngine, AnEngineThatCannotStartFailsNamingItAndNothingIsWritten) {
  const std::string missing = (dir_ / "no-such-engine").string();
  const std::string epd = (dir_ / "e.epd").string();
  const auto r = exits(epd, {"--engine", missing});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(missing), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(epd));

  // A build checks its exit engine before it writes the book.
  const std::string games = (test::source_dir() / "data-samples" / "twic0920-2000.pgn").string();
  const std::string book = (dir_ / "b.bin").string();
  const auto built =
      test::run_bookforge({"build", games, "-o", book, "--exits", epd, "--exit-engine", missing});
  EXPECT_EQ(built.exit_code, 1);
  EXPECT_NE(built.err.find(missing), std::string::npos) << built.err;
  EXPECT_FALSE(std::filesystem::exists(book));
  EXPECT_FALSE(std::filesystem::exists(epd));
}

TEST_F(ExitsEngine, AnEngineThatDiesMidRunFailsNamingItAndNothingIsWritten) {
  const std::string engine = dying_engine();
  const std::string epd = (dir_ / "e.epd").string();
  for (const std::string& output : {epd, std::string("-")}) {
    const auto r = exits(output, {"--engine", engine, "--threads", "1"});
    EXPECT_EQ(r.exit_code, 1) << output;
    EXPECT_NE(r.err.find(engine), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "") << output;
  }
  EXPECT_FALSE(std::filesystem::exists(epd));
}

TEST_F(ExitsEngine, ExitEngineNeedsExits) {
  const std::string games = (test::source_dir() / "data-samples" / "twic0920-2000.pgn").string();
  const auto r = test::run_bookforge(
      {"build", games, "-o", (dir_ / "b.bin").string(), "--exit-engine", "/usr/games/stockfish"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--exit-engine needs --exits"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace bookforge
