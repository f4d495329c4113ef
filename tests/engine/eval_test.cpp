// The static evaluation: colour symmetry, the breakdown the tuner reads, and sanity checks
// on positions whose verdict is not in doubt.
#include "engine/eval.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/test_support.h"

namespace bookforge::engine {
namespace {

using test::board_of;
using test::colour_flipped;

// These tests are of the hand-written evaluation; engine::evaluate(board) uses the network by
// default (tests/engine/nnue_test.cpp).
Score classical(const chess::Board& board) { return evaluate(board, default_eval_params()); }
Score classical(const chess::Board& board, const EvalParams& params) { return evaluate(board, params); }

const std::vector<std::string>& kPositions = test::evaluation_positions();

TEST(Eval, ColourFlipGivesTheSameScoreForTheSideToMove) {
  for (const std::string& fen : kPositions) {
    const std::string mirror = colour_flipped(fen);
    EXPECT_EQ(classical(board_of(fen)), classical(board_of(mirror))) << fen << "\nmirror " << mirror;
  }
}

TEST(Eval, ColourFlipOnTheStsSuite) {
  BOOKFORGE_SHARED_OR_SKIP(path, "tactics/sts/STS1-STS15_LAN_v6.epd");
  std::ifstream in(path);
  int checked = 0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string placement, side, castling, ep;
    fields >> placement >> side >> castling >> ep;
    const std::string fen = placement + " " + side + " " + castling + " " + ep + " 0 1";
    EXPECT_EQ(classical(board_of(fen)), classical(board_of(colour_flipped(fen)))) << fen;
    ++checked;
  }
  EXPECT_GT(checked, 1000);
}

TEST(Eval, BreakdownBlendsToTheScore) {
  for (const std::string& fen : kPositions) {
    const chess::Board b = board_of(fen);
    const EvalBreakdown e = evaluate_breakdown(b, default_eval_params());
    const int white = e.drawn ? 0 : (e.mg * e.phase + e.eg * e.eg_scale / 64 * (24 - e.phase)) / 24;
    EXPECT_EQ(classical(b), b.side_to_move() == chess::kWhite ? white : -white) << fen;
  }
}

TEST(Eval, WeightsChangeTheScore) {
  // The tuner relies on evaluate(board, params) reading every weight from params.
  const chess::Board b = board_of("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
  EvalParams p = default_eval_params();
  p.tempo.mg += 24;
  p.tempo.eg += 24;
  EXPECT_EQ(classical(b, p), classical(b) + 24);
}

TEST(Eval, AMinorOnTheLastRankHasNoPawnInFront) {
  // Knights and bishops of both colours on the far rank: the square in front of them is off
  // the board, so the minor-behind-a-pawn weight must not count (nor read past bit 63, which
  // the sanitizer build reports as undefined behaviour).
  const std::string fen = "N3k2B/4p3/8/8/8/8/4P3/n3K2b w - - 0 1";
  EvalParams p = default_eval_params();
  p.minor_behind_pawn.mg += 1000;
  p.minor_behind_pawn.eg += 1000;
  EXPECT_EQ(classical(board_of(fen), p), classical(board_of(fen)));
  EXPECT_EQ(classical(board_of(fen)), classical(board_of(colour_flipped(fen))));
}

TEST(Eval, StartPositionIsNearlyEqual) {
  const Score s = classical(chess::Board());
  EXPECT_GT(s, -10);
  EXPECT_LT(s, 50);
}

TEST(Eval, MaterialDecides) {
  // White is a queen up: clearly winning for white, clearly losing for black to move.
  const Score white_to_move = classical(board_of("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
  const Score black_to_move = classical(board_of("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"));
  EXPECT_GT(white_to_move, 700);
  EXPECT_LT(black_to_move, -700);
  // A rook beats a minor piece, a minor piece beats a pawn.
  EXPECT_GT(classical(board_of("4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1")),
            classical(board_of("4k3/pppp4/8/8/8/8/PPPP4/N3K3 w - - 0 1")));
  EXPECT_GT(classical(board_of("4k3/pppp4/8/8/8/8/PPPP4/N3K3 w - - 0 1")),
            classical(board_of("4k3/pppp4/8/8/8/8/PPPPP3/4K3 w - - 0 1")));
}

TEST(Eval, DeadDrawsScoreZero) {
  EXPECT_EQ(classical(board_of("8/8/4k3/8/8/3K4/8/8 w - - 0 1")), 0);
  EXPECT_EQ(classical(board_of("8/8/4k3/8/8/3KN3/8/8 w - - 0 1")), 0);
  EXPECT_EQ(classical(board_of("8/8/4k3/8/8/3KB3/8/8 b - - 0 1")), 0);
}

TEST(Eval, AdvancedPassedPawnIsWorthMore) {
  const Score far = classical(board_of("8/8/4k3/8/8/8/P7/4K3 w - - 0 1"));
  const Score near = classical(board_of("8/P7/4k3/8/8/8/8/4K3 w - - 0 1"));
  EXPECT_GT(near, far + 100);
}

TEST(Eval, ExposedKingCostsInTheMiddlegame) {
  // Same pieces; in the second position white's king has walked out in front of its pawns,
  // with every enemy piece still on the board.
  const Score castled =
      classical(board_of("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 1"));
  const Score exposed =
      classical(board_of("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2NPKN2/PPP2PPP/R1BQ1R2 w - - 0 1"));
  EXPECT_GT(castled, exposed + 50);
}

// How much white's middlegame and endgame scores grow when `bump` adds 1000 to a weight.
EvalWeight change_from(const std::string& fen, void (*bump)(EvalParams&)) {
  EvalParams p = default_eval_params();
  bump(p);
  const EvalBreakdown before = evaluate_breakdown(board_of(fen), default_eval_params());
  const EvalBreakdown after = evaluate_breakdown(board_of(fen), p);
  return {after.mg - before.mg, after.eg - before.eg};
}

TEST(Eval, CandidatePassedPawnNeedsAsManyHelpersAsStoppers) {
  auto bump = [](EvalParams& p) { p.candidate_passed[3].mg += 1000, p.candidate_passed[3].eg += 1000; };
  // b4 is unopposed; a6 guards its path and c4 beside it can answer: a candidate (c4 itself
  // is passed, not a candidate).
  EXPECT_EQ(change_from("4k3/8/p7/8/1PP5/8/8/4K3 w - - 0 1", bump).eg, 1000);
  // Without c4 the single stopper wins.
  EXPECT_EQ(change_from("4k3/8/p7/8/1P6/8/8/4K3 w - - 0 1", bump).eg, 0);
  // Two stoppers and two helpers (a3, c3), but opposed by b6 on its own file: not a candidate.
  EXPECT_EQ(change_from("4k3/2p5/1p6/8/1P6/P1P5/8/4K3 w - - 0 1", bump).eg, 0);
  // The same for black, from its side of the board.
  EXPECT_EQ(change_from("4k3/8/8/1pp5/8/P7/8/4K3 w - - 0 1", bump).eg, -1000);
}

TEST(Eval, RookBehindPassedPawnCountsOnlyWithNothingBetween) {
  auto bump = [](EvalParams& p) { p.rook_behind_passer.mg += 1000, p.rook_behind_passer.eg += 1000; };
  EXPECT_EQ(change_from("4k3/8/8/P7/8/8/8/R3K3 w - - 0 1", bump).eg, 1000);
  EXPECT_EQ(change_from("4k3/8/8/P7/8/8/B7/R3K3 w - - 0 1", bump).eg, 0);
  EXPECT_EQ(change_from("R7/6k1/8/P7/8/8/8/4K3 w - - 0 1", bump).eg, 0);  // in front of it
}

TEST(Eval, KingPawnDistanceIsToTheNearestOwnPawn) {
  auto bump = [](EvalParams& p) { p.king_pawn_distance.eg += 1000; };
  // White's king on e1 is 4 squares from a4 and from h5; black's on e8 is 2 from c6.
  EXPECT_EQ(change_from("4k3/8/2p5/7P/P7/8/8/4K3 w - - 0 1", bump).eg, 4000 - 2000);
}

}  // namespace
}  // namespace bookforge::engine
