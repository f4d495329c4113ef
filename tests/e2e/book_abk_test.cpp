// The book commands on the shipped Arena book (data-samples/libra8.abk.xz, unpacked with xz):
// info, probe and merge read it like a .bin, merge converts it alone or with another book, and
// a damaged copy is refused with the file, the entry and its offset, exit code 1.
#include "support/test_support.h"

namespace bookforge::test {
namespace {

TEST(BookAbk, InfoProbeAndMergeReadIt) {
  TempDir tmp;
  const std::string abk = unpacked_sample(tmp, "libra8.abk.xz");
  if (abk.empty()) GTEST_SKIP() << "xz or data-samples/libra8.abk.xz is missing";

  CommandResult info = run_bookforge({"info", abk});
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find("an Arena ABK book"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("illegal     0 entries"), std::string::npos) << info.out;

  CommandResult merged = run_bookforge({"merge", "-q", abk, "-o", (tmp / "one.bin").string()});
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  for (const std::string moves : {"", "g3 g6", "d4 Nf6 c4 g6 Nc3"}) {
    std::vector<std::string> args = {"probe", abk, "--json"};
    if (!moves.empty()) args.insert(args.end(), {"--moves", moves});
    CommandResult from_abk = run_bookforge(args);
    args[1] = (tmp / "one.bin").string();
    CommandResult from_bin = run_bookforge(args);
    ASSERT_EQ(from_abk.exit_code, 0) << from_abk.err;
    EXPECT_NE(from_abk.out.find("\"uci\""), std::string::npos) << moves;
    EXPECT_EQ(from_abk.out, from_bin.out) << moves;
  }
  // With a .bin (here its own conversion), sum doubles every weight: 1. e4 has 16269 games.
  CommandResult both =
      run_bookforge({"merge", "-q", abk, (tmp / "one.bin").string(), "-o", (tmp / "two.bin").string()});
  ASSERT_EQ(both.exit_code, 0) << both.err;
  CommandResult probe = run_bookforge({"probe", (tmp / "two.bin").string(), "--json"});
  EXPECT_NE(probe.out.find("{\"uci\":\"e2e4\",\"san\":\"e4\",\"weight\":32538,"), std::string::npos)
      << probe.out;
}

TEST(BookAbk, DamageIsReportedWithTheEntry) {
  TempDir tmp;
  const std::string abk = unpacked_sample(tmp, "libra8.abk.xz");
  if (abk.empty()) GTEST_SKIP() << "xz or data-samples/libra8.abk.xz is missing";
  std::string bytes = read_file(abk);

  // Entry 900's next sibling (bytes 24..27 of the entry) sent far past the end.
  std::string bad_link = bytes;
  bad_link.replace(25200 + 24, 4, std::string("\x40\x42\x0f\x00", 4));
  write_file(tmp / "bad_link.abk", bad_link);
  CommandResult probe = run_bookforge({"probe", (tmp / "bad_link.abk").string()});
  EXPECT_EQ(probe.exit_code, 1);
  EXPECT_NE(
      probe.err.find((tmp / "bad_link.abk").string() +
                     ": entry 900 (byte offset 25200): links to entry 1000000, outside the book's entries "
                     "900..141686"),
      std::string::npos)
      << probe.err;

  write_file(tmp / "cut.abk", bytes.substr(0, bytes.size() - 10));
  CommandResult info = run_bookforge({"info", (tmp / "cut.abk").string()});
  EXPECT_EQ(info.exit_code, 1);
  EXPECT_NE(info.out.find("leaves a partial entry at byte offset 3967208"), std::string::npos) << info.out;
}

}  // namespace
}  // namespace bookforge::test
