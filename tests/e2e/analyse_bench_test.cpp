// `bookforge analyse` and `bookforge bench` end to end.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include "support/test_support.h"

namespace bookforge {
namespace {

using test::run_bookforge;
using Json = nlohmann::ordered_json;

TEST(AnalyseCommand, JsonReportsMateScoreAndPvInSanAndUci) {
  const auto r =
      run_bookforge({"analyse", "--fen", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "--depth", "4", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json json = Json::parse(r.out);
  EXPECT_EQ(json["lines"][0]["score"], Json({{"mate", 1}})) << r.out;
  EXPECT_EQ(json["lines"][0]["pv_san"], Json::array({"Rd8#"})) << r.out;
  EXPECT_EQ(json["lines"][0]["pv_uci"], Json::array({"d1d8"})) << r.out;
  EXPECT_EQ(json["bestmove"], Json({{"uci", "d1d8"}, {"san", "Rd8#"}})) << r.out;
}

TEST(AnalyseCommand, TextWithMovesAndMultiPv) {
  const auto r = run_bookforge({"analyse", "--moves", "1. e4 e5 2. Nf3", "--depth", "5", "--multipv", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Black to move after 1.e4 e5 2.Nf3: three numbered lines, each starting "2... ".
  EXPECT_NE(r.out.find("Position  rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"),
            std::string::npos)
      << r.out;
  const std::regex line(R"(\n ([123])\. +[+-]\d+\.\d\d  2\.\.\. )");
  int lines = 0;
  for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), line); it != std::sregex_iterator(); ++it)
    ++lines;
  EXPECT_EQ(lines, 3) << r.out;
}

TEST(AnalyseCommand, NodeLimitAndMultiPvInJson) {
  const auto r = run_bookforge({"analyse", "--nodes", "5000", "--multipv", "2", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json json = Json::parse(r.out);
  ASSERT_EQ(json["lines"].size(), 2u) << r.out;
  EXPECT_EQ(json["lines"][1]["multipv"], 2) << r.out;
}

TEST(AnalyseCommand, CheckmateAndBadInput) {
  auto r = run_bookforge({"analyse", "--fen", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Json::parse(r.out)["result"], "checkmate") << r.out;

  r = run_bookforge({"analyse", "--moves", "e4 e5 Ke3"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("move 3 \"Ke3\""), std::string::npos) << r.err;
  r = run_bookforge({"analyse", "--fen", "8/8/8 w - - 0 1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--fen"), std::string::npos) << r.err;
  r = run_bookforge({"analyse", "--depth", "3", "--nodes", "100"});
  EXPECT_EQ(r.exit_code, 2);
}

std::string signature(const std::string& out) {
  std::smatch m;
  return std::regex_search(out, m, std::regex(R"(Nodes searched  : (\d+))")) ? m[1].str() : "";
}

TEST(BenchCommand, NodeCountIsASignature) {
  const auto a = run_bookforge({"bench", "--depth", "5"});
  const auto b = run_bookforge({"bench", "--depth", "5", "--quiet"});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_FALSE(signature(a.out).empty()) << a.out;
  EXPECT_EQ(signature(a.out), signature(b.out));
  EXPECT_NE(a.out.find("Nodes/second    : "), std::string::npos);
  const auto deeper = run_bookforge({"bench", "--depth", "6", "--quiet"});
  EXPECT_NE(signature(deeper.out), signature(a.out));
}

TEST(BenchCommand, EpdSuiteIsJudgedByBestAndAvoidMoves) {
  test::TempDir dir;
  test::write_file(dir / "suite.epd",
                   "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#; id \"mate\";\n"
                   "4k3/8/8/3q4/8/8/8/3RK3 b - - am Kf7; id \"keep the queen\";\n"
                   "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm h3; id \"wrong on purpose\";\n"
                   "this is not an EPD line\n");
  const auto r = run_bookforge({"bench", "--epd", (dir / "suite.epd").string(), "--depth", "4"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Solved          : 2 / 3"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("suite.epd:4:"), std::string::npos) << r.err;
}

TEST(BenchCommand, EpdSuiteWithAnExternalEngine) {
  if (!std::filesystem::exists("/usr/games/stockfish")) GTEST_SKIP() << "no stockfish";
  test::TempDir dir;
  test::write_file(dir / "suite.epd", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#; id \"mate\";\n");
  const auto r = run_bookforge({"bench", "--epd", (dir / "suite.epd").string(), "--nodes", "10000",
                                "--engine", "/usr/games/stockfish"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Solved          : 1 / 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Stockfish"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace bookforge
