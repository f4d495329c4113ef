// The perft and key subcommands, run as the real binary.
#include <gtest/gtest.h>

#include "support/test_support.h"

namespace bookforge::test {
namespace {

std::string last_line(const std::string& out) {
  std::string text = out;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text.substr(text.rfind('\n') + 1);
}

TEST(CliCore, PerftPrintsNodesLast) {
  CommandResult r = run_bookforge({"perft", "--depth", "4"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(last_line(r.out), "nodes 197281");
  r = run_bookforge({"perft", "--fen", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", "--depth", "5"});
  EXPECT_EQ(last_line(r.out), "nodes 674624");
}

TEST(CliCore, PerftDivide) {
  CommandResult r =
      run_bookforge({"perft", "--fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                     "--depth", "2", "--divide"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("e1g1: 43\n"), std::string::npos) << r.out;  // castling printed the UCI way
  EXPECT_NE(r.out.find("e5f7: 44\n"), std::string::npos) << r.out;
  EXPECT_EQ(last_line(r.out), "nodes 2039");
}

TEST(CliCore, PerftBadInput) {
  CommandResult r = run_bookforge({"perft", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1", "--depth", "1"});
  EXPECT_EQ(r.exit_code, 2) << "a bad --fen is bad command-line input";
  EXPECT_NE(r.err.find("white has 0 kings"), std::string::npos) << r.err;
  EXPECT_EQ(run_bookforge({"perft", "--depth", "x"}).exit_code, 2);
  EXPECT_EQ(run_bookforge({"perft"}).exit_code, 2);
}

TEST(CliCore, KeyFromFenAndMoves) {
  EXPECT_EQ(run_bookforge({"key"}).out, "463b96181691fc9c\n");
  EXPECT_EQ(run_bookforge({"key", "--moves", "e4 d5 e5 f5 Ke2 Kf7"}).out, "00fdd303c946bdd9\n");
  EXPECT_EQ(run_bookforge({"key", "--moves", "1.e4 d5 2.e5 f5 3.Ke2 Kf7"}).out, "00fdd303c946bdd9\n");
  EXPECT_EQ(run_bookforge({"key", "--moves", "e2e4 d7d5 e4e5 f7f5 e1e2 e8f7"}).out, "00fdd303c946bdd9\n");
  EXPECT_EQ(
      run_bookforge({"key", "--fen", "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4"}).out,
      "5c3f9b829b279560\n");
  // --moves continues from --fen.
  EXPECT_EQ(run_bookforge({"key", "--fen", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                           "--moves", "d5 e5 f5"})
                .out,
            "22a48b5a8e47ff78\n");
}

TEST(CliCore, KeyBadMoveIsAnError) {
  CommandResult r = run_bookforge({"key", "--moves", "e4 e5 Nf9"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("move 3 \"Nf9\""), std::string::npos) << r.err;
  r = run_bookforge({"key", "--moves", "e4 e5 Ke2 Ke7 Kd3 Ke8 Kc4 Ke7 Kb5 Ke8 O-O"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("castling"), std::string::npos) << r.err;
  r = run_bookforge({"key", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("fields"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace bookforge::test
