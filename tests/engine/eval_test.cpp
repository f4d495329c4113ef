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

// The same position with the colours swapped: ranks mirrored, piece letters' case swapped,
// the other side to move, castling rights and the en-passant square mirrored too.
std::string colour_flipped(const std::string& fen) {
  std::istringstream in(fen);
  std::string placement, side, castling = "-", ep = "-";
  in >> placement >> side >> castling >> ep;
  std::vector<std::string> ranks;
  std::stringstream ps(placement);
  for (std::string rank; std::getline(ps, rank, '/');) ranks.push_back(rank);
  std::string flipped;
  for (auto it = ranks.rbegin(); it != ranks.rend(); ++it) {
    if (!flipped.empty()) flipped += '/';
    for (char c : *it)
      flipped += std::isalpha(static_cast<unsigned char>(c))
                     ? (std::isupper(c) ? char(std::tolower(c)) : char(std::toupper(c)))
                     : c;
  }
  std::string rights;
  for (char c : castling)
    rights += c == '-' ? c : (std::isupper(c) ? char(std::tolower(c)) : char(std::toupper(c)));
  // Polyglot/FEN order: white's rights first.
  std::string ordered;
  for (char c : std::string("KQkq"))
    if (rights.find(c) != std::string::npos) ordered += c;
  if (ordered.empty()) ordered.push_back('-');
  if (ep != "-") ep[1] = ep[1] == '3' ? '6' : '3';
  return flipped + (side == "w" ? " b " : " w ") + ordered + " " + ep + " 0 1";
}

const std::vector<std::string> kPositions = {
    std::string(chess::kStartFen),
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r2q1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 10",
    "2r3k1/pp3ppp/4p3/3pP3/3P4/P4N2/1P3PPP/6K1 b - - 0 25",
    "8/5pk1/6p1/3P4/8/6P1/5PK1/8 w - - 0 40",
    "8/8/4k3/8/2P5/8/8/4K3 b - - 0 50",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "r3k2r/pb1n1ppp/1p2p3/q1pp4/2PP4/P1Q1PN2/1P1B1PPP/R3K2R b KQkq - 1 12",
    "6k1/5ppp/8/8/8/8/1q3PPP/3R2K1 w - - 0 30",
    "8/8/8/4k3/8/8/3BB3/4K3 w - - 0 60",
};

TEST(Eval, ColourFlipGivesTheSameScoreForTheSideToMove) {
  for (const std::string& fen : kPositions) {
    const std::string mirror = colour_flipped(fen);
    EXPECT_EQ(evaluate(board_of(fen)), evaluate(board_of(mirror))) << fen << "\nmirror " << mirror;
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
    EXPECT_EQ(evaluate(board_of(fen)), evaluate(board_of(colour_flipped(fen)))) << fen;
    ++checked;
  }
  EXPECT_GT(checked, 1000);
}

TEST(Eval, BreakdownBlendsToTheScore) {
  for (const std::string& fen : kPositions) {
    const chess::Board b = board_of(fen);
    const EvalBreakdown e = evaluate_breakdown(b, default_eval_params());
    const int white = e.drawn ? 0 : (e.mg * e.phase + e.eg * e.eg_scale / 64 * (24 - e.phase)) / 24;
    EXPECT_EQ(evaluate(b), b.side_to_move() == chess::kWhite ? white : -white) << fen;
    EXPECT_EQ(evaluate(b), evaluate(b, default_eval_params())) << fen;
  }
}

TEST(Eval, WeightsChangeTheScore) {
  // The tuner relies on evaluate(board, params) reading every weight from params.
  const chess::Board b = board_of("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
  EvalParams p = default_eval_params();
  p.tempo.mg += 24;
  p.tempo.eg += 24;
  EXPECT_EQ(evaluate(b, p), evaluate(b) + 24);
}

TEST(Eval, AMinorOnTheLastRankHasNoPawnInFront) {
  // Knights and bishops of both colours on the far rank: the square in front of them is off
  // the board, so the minor-behind-a-pawn weight must not count (nor read past bit 63, which
  // the sanitizer build reports as undefined behaviour).
  const std::string fen = "N3k2B/4p3/8/8/8/8/4P3/n3K2b w - - 0 1";
  EvalParams p = default_eval_params();
  p.minor_behind_pawn.mg += 1000;
  p.minor_behind_pawn.eg += 1000;
  EXPECT_EQ(evaluate(board_of(fen), p), evaluate(board_of(fen)));
  EXPECT_EQ(evaluate(board_of(fen)), evaluate(board_of(colour_flipped(fen))));
}

TEST(Eval, StartPositionIsNearlyEqual) {
  const Score s = evaluate(chess::Board());
  EXPECT_GT(s, -10);
  EXPECT_LT(s, 50);
}

TEST(Eval, MaterialDecides) {
  // White is a queen up: clearly winning for white, clearly losing for black to move.
  const Score white_to_move = evaluate(board_of("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
  const Score black_to_move = evaluate(board_of("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"));
  EXPECT_GT(white_to_move, 700);
  EXPECT_LT(black_to_move, -700);
  // A rook beats a minor piece, a minor piece beats a pawn.
  EXPECT_GT(evaluate(board_of("4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1")),
            evaluate(board_of("4k3/pppp4/8/8/8/8/PPPP4/N3K3 w - - 0 1")));
  EXPECT_GT(evaluate(board_of("4k3/pppp4/8/8/8/8/PPPP4/N3K3 w - - 0 1")),
            evaluate(board_of("4k3/pppp4/8/8/8/8/PPPPP3/4K3 w - - 0 1")));
}

TEST(Eval, DeadDrawsScoreZero) {
  EXPECT_EQ(evaluate(board_of("8/8/4k3/8/8/3K4/8/8 w - - 0 1")), 0);
  EXPECT_EQ(evaluate(board_of("8/8/4k3/8/8/3KN3/8/8 w - - 0 1")), 0);
  EXPECT_EQ(evaluate(board_of("8/8/4k3/8/8/3KB3/8/8 b - - 0 1")), 0);
}

TEST(Eval, AdvancedPassedPawnIsWorthMore) {
  const Score far = evaluate(board_of("8/8/4k3/8/8/8/P7/4K3 w - - 0 1"));
  const Score near = evaluate(board_of("8/P7/4k3/8/8/8/8/4K3 w - - 0 1"));
  EXPECT_GT(near, far + 100);
}

TEST(Eval, ExposedKingCostsInTheMiddlegame) {
  // Same pieces; in the second position white's king has walked out in front of its pawns,
  // with every enemy piece still on the board.
  const Score castled =
      evaluate(board_of("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 1"));
  const Score exposed =
      evaluate(board_of("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2NPKN2/PPP2PPP/R1BQ1R2 w - - 0 1"));
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
