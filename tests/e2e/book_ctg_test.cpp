// The book commands on ChessBase books: the shipped data-samples/simple.ctg.xz (unpacked with
// xz), and the book $BOOKFORGE_CTG_BOOK names when set (real CTG books are commercial: none is
// shipped). info, probe and merge read a .ctg like a .bin, merge converts it alone or with
// another book, and a damaged copy is refused with the file, the page and the byte offset, exit
// code 1.
#include <cstdlib>

#include "support/test_support.h"

namespace bookforge::test {
namespace {

// probe --json of the book and of its conversion by merge are the same for each line.
void expect_conversion_probes_alike(const std::string& ctg, const TempDir& tmp,
                                    const std::vector<std::string>& lines) {
  const std::string bin = (tmp / "converted.bin").string();
  CommandResult merged = run_bookforge({"merge", "-q", ctg, "-o", bin});
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  for (const std::string& moves : lines) {
    std::vector<std::string> args = {"probe", ctg, "--json"};
    if (!moves.empty()) args.insert(args.end(), {"--moves", moves});
    CommandResult from_ctg = run_bookforge(args);
    args[1] = bin;
    CommandResult from_bin = run_bookforge(args);
    ASSERT_EQ(from_ctg.exit_code, 0) << from_ctg.err;
    EXPECT_NE(from_ctg.out.find("\"uci\""), std::string::npos) << moves;
    EXPECT_EQ(from_ctg.out, from_bin.out) << moves;
  }
}

TEST(BookCtg, InfoProbeAndMergeReadIt) {
  TempDir tmp;
  const std::string ctg = unpacked_sample(tmp, "simple.ctg.xz");
  if (ctg.empty()) GTEST_SKIP() << "xz or data-samples/simple.ctg.xz is missing";

  CommandResult info = run_bookforge({"info", ctg});
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find("a ChessBase CTG book"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("entries     3 (0 with weight 0)"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("illegal     0 entries"), std::string::npos) << info.out;

  expect_conversion_probes_alike(ctg, tmp, {"", "d4"});
  // The start position: 1. e4 and 1. d4, one game each (the sample has no results).
  CommandResult probe = run_bookforge({"probe", ctg, "--json"});
  EXPECT_NE(probe.out.find("{\"uci\":\"d2d4\",\"san\":\"d4\",\"weight\":1,"), std::string::npos) << probe.out;
  EXPECT_NE(probe.out.find("{\"uci\":\"e2e4\",\"san\":\"e4\",\"weight\":1,"), std::string::npos) << probe.out;
  // With a .bin (here its own conversion), sum doubles every weight.
  CommandResult both =
      run_bookforge({"merge", "-q", ctg, (tmp / "converted.bin").string(), "-o", (tmp / "two.bin").string()});
  ASSERT_EQ(both.exit_code, 0) << both.err;
  probe = run_bookforge({"probe", (tmp / "two.bin").string(), "--json"});
  EXPECT_NE(probe.out.find("{\"uci\":\"e2e4\",\"san\":\"e4\",\"weight\":2,"), std::string::npos) << probe.out;
}

TEST(BookCtg, DamageIsReportedWithThePage) {
  TempDir tmp;
  const std::string ctg = unpacked_sample(tmp, "simple.ctg.xz");
  if (ctg.empty()) GTEST_SKIP() << "xz or data-samples/simple.ctg.xz is missing";
  const std::string bytes = read_file(ctg);

  // The start position's record is the second of page 1 (byte offset 4156); its position takes
  // 22 bytes, its move list's length byte follows, then the first move's code.
  std::string bad_move = bytes;
  bad_move[4156 + 22 + 1] = '\x02';
  write_file(tmp / "bad_move.ctg", bad_move);
  CommandResult probe = run_bookforge({"probe", (tmp / "bad_move.ctg").string()});
  EXPECT_EQ(probe.exit_code, 1);
  EXPECT_NE(probe.err.find((tmp / "bad_move.ctg").string() +
                           ": page 1 (byte offset 4156): move 1 (code 2) names no move"),
            std::string::npos)
      << probe.err;

  write_file(tmp / "cut.ctg", bytes.substr(0, bytes.size() - 10));
  CommandResult info = run_bookforge({"info", (tmp / "cut.ctg").string()});
  EXPECT_EQ(info.exit_code, 1);
  EXPECT_NE(info.out.find("leaves a partial page at byte offset 4096"), std::string::npos) << info.out;
}

TEST(BookCtg, ARealBookNamedByTheEnvironment) {
  const char* path = std::getenv("BOOKFORGE_CTG_BOOK");
  if (path == nullptr || !std::filesystem::exists(path)) GTEST_SKIP() << "BOOKFORGE_CTG_BOOK names no file";
  TempDir tmp;
  CommandResult info = run_bookforge({"info", path});
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find("illegal     0 entries"), std::string::npos) << info.out;
  expect_conversion_probes_alike(path, tmp, {"", "e4", "e4 c5"});
}

}  // namespace
}  // namespace bookforge::test
