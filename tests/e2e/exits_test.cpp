// `bookforge build --exits`: the book's exit positions as EPD, from the real binary.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "book/polyglot/reader.h"
#include "support/test_support.h"

namespace bookforge {
namespace {

TEST(ExitsBuild, EveryLineIsAPositionTheBookHasNoMoveFor) {
  test::TempDir dir;
  const std::string games = (test::source_dir() / "data-samples" / "twic0920-2000.pgn").string();
  const std::vector<std::string> base = {"build", games, "--max-ply", "8", "--exit-depth", "5"};
  auto args = base;
  args.insert(args.end(), {"-o", (dir / "book.bin").string(), "--exits", (dir / "all.epd").string()});
  const auto r = test::run_bookforge(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("all.epd: "), std::string::npos) << r.out;
  auto book = book::PolyglotBook::open((dir / "book.bin").string());
  ASSERT_TRUE(book.ok());
  std::istringstream all(test::read_file(dir / "all.epd"));
  int lines = 0;
  for (std::string line; std::getline(all, line); ++lines) {
    const size_t ce = line.find(" ce ");
    ASSERT_NE(ce, std::string::npos) << line;
    const chess::Board b = test::board_of(line.substr(0, ce) + " 0 1");
    EXPECT_TRUE(book->find(b.key()).empty()) << line;
  }
  EXPECT_GT(lines, 10);

  // A band keeps fewer, each within it (White's view, from the c0 comment).
  args = base;
  args.insert(args.end(), {"-o", (dir / "band.bin").string(), "--exits", (dir / "band.epd").string(),
                           "--exit-eval-min", "0", "--exit-eval-max", "30", "-q"});
  ASSERT_EQ(test::run_bookforge(args).exit_code, 0);
  std::istringstream band(test::read_file(dir / "band.epd"));
  int kept = 0;
  for (std::string line; std::getline(band, line); ++kept) {
    const size_t white = line.find("white ");
    ASSERT_NE(white, std::string::npos) << line;
    const int score = std::stoi(line.substr(white + 6));
    EXPECT_GE(score, 0) << line;
    EXPECT_LE(score, 30) << line;
  }
  EXPECT_LT(kept, lines);
}

TEST(ExitsBuild, ItsFlagsNeedExitsAndABand) {
  test::TempDir dir;
  const std::string games = (test::source_dir() / "data-samples" / "twic0920-2000.pgn").string();
  auto alone = test::run_bookforge({"build", games, "-o", (dir / "b.bin").string(), "--exit-eval-min", "5"});
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_NE(alone.err.find("--exits"), std::string::npos) << alone.err;
  auto empty =
      test::run_bookforge({"build", games, "-o", (dir / "b.bin").string(), "--exits",
                           (dir / "e.epd").string(), "--exit-eval-min", "50", "--exit-eval-max", "10"});
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_NE(empty.err.find("band is empty"), std::string::npos) << empty.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "b.bin"));
  EXPECT_FALSE(std::filesystem::exists(dir / "e.epd"));
}

// `bookforge exits BOOK`: what build --exits writes, whole or in batches whose files, concatenated
// in order, are the whole file.
TEST(ExitsCommand, BatchesConcatenatedAreTheWholeFileAndBuildsExits) {
  test::TempDir dir;
  const std::string games = (test::source_dir() / "data-samples" / "twic0920-2000.pgn").string();
  const std::string book = (dir / "book.bin").string();
  const std::vector<std::string> band = {"--eval-min", "-40", "--eval-max", "40"};
  ASSERT_EQ(test::run_bookforge({"build", games, "--max-ply", "8", "-q", "-o", book, "--exits",
                                 (dir / "build.epd").string(), "--exit-depth", "5", "--exit-eval-min", "-40",
                                 "--exit-eval-max", "40"})
                .exit_code,
            0);
  auto exits = [&](const std::string& output, const std::vector<std::string>& more) {
    std::vector<std::string> args = {"exits", book, "-o", output, "--depth", "5"};
    args.insert(args.end(), band.begin(), band.end());
    args.insert(args.end(), more.begin(), more.end());
    return test::run_bookforge(args);
  };
  const auto whole = exits((dir / "whole.epd").string(), {});
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  EXPECT_NE(whole.out.find("whole.epd: "), std::string::npos) << whole.out;
  const std::string epd = test::read_file(dir / "whole.epd");
  EXPECT_EQ(epd, test::read_file(dir / "build.epd"));
  EXPECT_GT(std::count(epd.begin(), epd.end(), '\n'), 10);
  for (int n : {1, 2, 3}) {
    std::string joined;
    for (int i = 0; i < n; ++i) {
      const std::string part = (dir / ("part" + std::to_string(i))).string();
      const auto r = exits(part, {"--batch", std::to_string(i) + "/" + std::to_string(n), "--threads", "2"});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      joined += test::read_file(part);
    }
    EXPECT_EQ(joined, epd) << n << " batches";
  }
  // To standard output, the summary on standard error.
  const auto out = exits("-", {});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_EQ(out.out, epd);
  EXPECT_NE(out.err.find("-: "), std::string::npos) << out.err;
}

TEST(ExitsCommand, AMalformedBatchOrAnEmptyBandIsRefused) {
  test::TempDir dir;
  const std::string games = (test::source_dir() / "data-samples" / "twic0920-2000.pgn").string();
  const std::string book = (dir / "book.bin").string();
  ASSERT_EQ(test::run_bookforge({"build", games, "--max-ply", "6", "-q", "-o", book}).exit_code, 0);
  for (const char* batch : {"2/2", "0/0", "x"}) {
    const auto r = test::run_bookforge({"exits", book, "-o", (dir / "e.epd").string(), "--batch", batch});
    EXPECT_EQ(r.exit_code, 2) << batch;
    EXPECT_NE(r.err.find("--batch '" + std::string(batch) + "'"), std::string::npos) << r.err;
  }
  const auto band = test::run_bookforge(
      {"exits", book, "-o", (dir / "e.epd").string(), "--eval-min", "50", "--eval-max", "10"});
  EXPECT_EQ(band.exit_code, 2);
  EXPECT_NE(band.err.find("band is empty"), std::string::npos) << band.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "e.epd"));
}

}  // namespace
}  // namespace bookforge
