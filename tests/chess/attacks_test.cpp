// Attack tables against a plain ray walk on random occupancies.
#include "chess/attacks.h"

#include <random>

#include <gtest/gtest.h>

namespace bookforge::chess {
namespace {

Bitboard ray_walk(Square s, Bitboard occupied, bool diagonal) {
  static const int kDiagonal[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
  static const int kStraight[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  Bitboard b = 0;
  for (const auto& d : diagonal ? kDiagonal : kStraight) {
    for (int f = file_of(s) + d[0], r = rank_of(s) + d[1]; f >= 0 && f < 8 && r >= 0 && r < 8;
         f += d[0], r += d[1]) {
      b |= square_bb(make_square(f, r));
      if (occupied & square_bb(make_square(f, r))) break;
    }
  }
  return b;
}

TEST(Attacks, SlidersMatchRayWalk) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    const Bitboard occ = rng() & rng();
    for (int s = 0; s < 64; ++s) {
      ASSERT_EQ(bishop_attacks(Square(s), occ), ray_walk(Square(s), occ, true));
      ASSERT_EQ(rook_attacks(Square(s), occ), ray_walk(Square(s), occ, false));
    }
  }
}

// slider_reaches (rays and the squares between) against the attack tables.
TEST(Attacks, SliderReachesMatchesAttackSets) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 300; ++i) {
    const Bitboard occ = rng() & rng();
    for (int from = 0; from < 64; ++from)
      for (PieceType pt : {kBishop, kRook, kQueen}) {
        const Bitboard attacks = piece_attacks(pt, Square(from), occ);
        for (int to = 0; to < 64; ++to)
          ASSERT_EQ(slider_reaches(pt, Square(from), Square(to), occ), (attacks & square_bb(Square(to))) != 0)
              << int(pt) << " " << from << " " << to;
      }
  }
}

TEST(Attacks, PseudoAttacksAreEmptyBoardAttacks) {
  for (Color c : {kWhite, kBlack})
    for (int s = 0; s < 64; ++s) {
      const Square sq = Square(s);
      EXPECT_EQ(pseudo_attacks(make_piece(c, kPawn), sq), pawn_attacks(c, sq));
      EXPECT_EQ(pseudo_attacks(make_piece(c, kKnight), sq), knight_attacks(sq));
      EXPECT_EQ(pseudo_attacks(make_piece(c, kKing), sq), king_attacks(sq));
      for (PieceType pt : {kBishop, kRook, kQueen})
        EXPECT_EQ(pseudo_attacks(make_piece(c, pt), sq), piece_attacks(pt, sq, 0));
    }
}

TEST(Attacks, Leapers) {
  EXPECT_EQ(knight_attacks(kA1), square_bb(kB3) | square_bb(kC2));
  EXPECT_EQ(popcount(knight_attacks(kD4)), 8);
  EXPECT_EQ(king_attacks(kH8), square_bb(kG8) | square_bb(kG7) | square_bb(kH7));
  EXPECT_EQ(pawn_attacks(kWhite, kE4), square_bb(kD5) | square_bb(kF5));
  EXPECT_EQ(pawn_attacks(kBlack, kA5), square_bb(kB4));
  EXPECT_EQ(pawn_attacks(kWhite, kH8), 0u);
  EXPECT_EQ(piece_attacks(kQueen, kD1, 0), queen_attacks(kD1, 0));
  EXPECT_EQ(popcount(queen_attacks(kD4, 0)), 27);
}

TEST(Attacks, LinesAndSegments) {
  EXPECT_EQ(between_bb(kA1, kD4), square_bb(kB2) | square_bb(kC3));
  EXPECT_EQ(between_bb(kE1, kH1), square_bb(kF1) | square_bb(kG1));
  EXPECT_EQ(between_bb(kE1, kE2), 0u);
  EXPECT_EQ(between_bb(kA1, kB3), 0u);
  EXPECT_EQ(line_bb(kA1, kB3), 0u);
  EXPECT_EQ(line_bb(kC3, kE5), line_bb(kA1, kH8));
  EXPECT_EQ(popcount(line_bb(kA1, kH8)), 8);
  EXPECT_EQ(line_bb(kE2, kE7), file_bb(4));
  for (int a = 0; a < 64; ++a)
    for (int b = 0; b < 64; ++b) {
      EXPECT_EQ(between_bb(Square(a), Square(b)), between_bb(Square(b), Square(a)));
      if (between_bb(Square(a), Square(b))) {
        EXPECT_EQ(between_bb(Square(a), Square(b)) & ~line_bb(Square(a), Square(b)), 0u);
      }
    }
}

}  // namespace
}  // namespace bookforge::chess
