// Legal and pseudo-legal generation, is_legal on arbitrary values, gives_check and is_capture,
// all cross-checked against each other and against make_move at every node of small trees.
#include "chess/movegen.h"

#include <algorithm>
#include <vector>

#include <gtest/gtest.h>

#include "chess/attacks.h"
#include "tree_walk.h"

namespace bookforge::chess {
namespace {

std::vector<uint16_t> sorted_raw(const MoveList& list) {
  std::vector<uint16_t> v;
  for (Move m : list) v.push_back(m.raw());
  std::sort(v.begin(), v.end());
  return v;
}

// Calls check(board) at the root and every node of depth-`depth` trees of the walk positions.
template <class Check>
void for_each_node(int depth, Check&& check) {
  for (const char* fen : test::kWalkFens) {
    Board board = *Board::from_fen(fen);
    check(board);
    test::walk_tree(board, depth, [&](Board& b, Move) { check(b); });
  }
}

TEST(Movegen, LegalMovesAreUniqueAndLegal) {
  for_each_node(2, [](Board& b) {
    MoveList list;
    generate_legal(b, list);
    auto v = sorted_raw(list);
    ASSERT_EQ(std::adjacent_find(v.begin(), v.end()), v.end()) << b.fen();
    for (Move m : list) {
      ASSERT_TRUE(b.is_legal(m)) << b.fen() << " " << m.raw();
      UndoInfo undo;
      b.make_move(m, undo);
      // The side that moved is never left in check.
      ASSERT_FALSE(b.attackers_to(b.king_square(~b.side_to_move())) & b.pieces(b.side_to_move())) << b.fen();
      b.unmake_move(m, undo);
    }
  });
}

// Exhaustive: every 16-bit value is legal exactly when the generator produces it.
TEST(Movegen, IsLegalOnEveryValueMatchesGenerator) {
  for_each_node(1, [](Board& b) {
    MoveList list;
    generate_legal(b, list);
    int legal = 0;
    for (uint32_t raw = 0; raw < 65536; ++raw) {
      const Move m{uint16_t(raw)};
      const bool in_list = list.contains(m);
      ASSERT_EQ(b.is_legal(m), in_list) << b.fen() << " raw " << raw;
      legal += in_list;
    }
    ASSERT_EQ(legal, list.size());
  });
}

TEST(Movegen, PseudoLegalFilteredEqualsLegal) {
  for_each_node(3, [](Board& b) {
    MoveList legal, all, captures, quiets, evasions;
    generate_legal(b, legal);
    generate_pseudo(b, GenKind::kAll, all);
    generate_pseudo(b, GenKind::kCaptures, captures);
    generate_pseudo(b, GenKind::kQuiets, quiets);

    MoveList filtered;
    for (Move m : all) {
      ASSERT_TRUE(b.is_legal(m) == b.is_legal_pseudo(m)) << b.fen() << " " << m.raw();
      if (b.is_legal_pseudo(m)) filtered.push(m);
    }
    ASSERT_EQ(sorted_raw(filtered), sorted_raw(legal)) << b.fen();

    // Captures (with every promotion) and quiets split kAll exactly.
    MoveList both = captures;
    for (Move m : quiets) both.push(m);
    ASSERT_EQ(sorted_raw(both), sorted_raw(all)) << b.fen();
    for (Move m : captures) ASSERT_TRUE(b.is_capture(m) || m.kind() == Move::kPromotion) << b.fen();
    for (Move m : quiets) ASSERT_FALSE(b.is_capture(m) || m.kind() == Move::kPromotion) << b.fen();

    if (b.in_check()) {
      generate_pseudo(b, GenKind::kEvasions, evasions);
      MoveList legal_evasions;
      for (Move m : evasions)
        if (b.is_legal_pseudo(m)) legal_evasions.push(m);
      ASSERT_EQ(sorted_raw(legal_evasions), sorted_raw(legal)) << b.fen();
    }
  });
}

TEST(Movegen, GivesCheckAndIsCaptureMatchMakeMove) {
  for_each_node(3, [](Board& b) {
    MoveList list;
    generate_legal(b, list);
    for (Move m : list) {
      const bool check = b.gives_check(m);
      const bool capture = b.is_capture(m);
      const int pieces_before = popcount(b.pieces());
      UndoInfo undo;
      b.make_move(m, undo);
      const bool really_check = b.in_check();
      const bool really_capture = popcount(b.pieces()) < pieces_before;
      b.unmake_move(m, undo);
      ASSERT_EQ(check, really_check) << b.fen() << " " << m.raw();
      ASSERT_EQ(capture, really_capture) << b.fen() << " " << m.raw();
    }
  });
}

TEST(Movegen, SpecialCases) {
  // En passant that would expose the king along the rank is not generated.
  Board pinned = *Board::from_fen("8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 1");
  MoveList list;
  generate_legal(pinned, list);
  EXPECT_FALSE(list.contains(Move(kE5, kD6, Move::kEnPassant)));
  EXPECT_TRUE(list.contains(Move(kE5, kE6)));

  // En passant that captures the checking pawn is generated.
  Board check = *Board::from_fen("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
  list = MoveList();
  generate_legal(check, list);
  EXPECT_TRUE(check.in_check());
  EXPECT_TRUE(list.contains(Move(kE4, kD3, Move::kEnPassant)));

  // Castling is king takes rook; through an attacked square it is not allowed.
  Board castle = *Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  list = MoveList();
  generate_legal(castle, list);
  EXPECT_TRUE(list.contains(Move(kE1, kH1, Move::kCastling)));
  EXPECT_TRUE(list.contains(Move(kE1, kA1, Move::kCastling)));
  Board through = *Board::from_fen("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1");  // f2 rook covers f1
  list = MoveList();
  generate_legal(through, list);
  EXPECT_FALSE(list.contains(Move(kE1, kH1, Move::kCastling)));
  // b1 attacked does not matter for the long castling; only the king's squares do.
  Board b1 = *Board::from_fen("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
  list = MoveList();
  generate_legal(b1, list);
  EXPECT_TRUE(list.contains(Move(kE1, kA1, Move::kCastling)));

  // Promotions come in all four pieces.
  Board promo = *Board::from_fen("8/P6k/8/8/8/8/8/K7 w - - 0 1");
  list = MoveList();
  generate_legal(promo, list);
  for (PieceType pt : {kKnight, kBishop, kRook, kQueen})
    EXPECT_TRUE(list.contains(Move(kA7, kA8, Move::kPromotion, pt)));
}

TEST(Movegen, RecordPositionHas218Moves) {
  // The position with the most legal moves known for reachable positions.
  Board board = *Board::from_fen("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1");
  MoveList list;
  generate_legal(board, list);
  EXPECT_EQ(list.size(), 218);
}

TEST(Movegen, ManyQueensFitInTheList) {
  // 15 queens: unreachable, more moves than any reachable position; the list must hold them.
  for (const char* fen : {"Q3Q1K1/2Q3Q1/Q6Q/5Q2/1Q1Q3Q/1Q4Q1/nn2Q3/knQ4Q w - - 0 1",
                          "QQQQQQQQ/QQQQQQQK/8/8/8/8/nn6/kn6 w - - 0 1"}) {
    auto board = Board::from_fen(fen);
    ASSERT_TRUE(board.ok()) << board.error().message;
    MoveList legal, pseudo;
    generate_legal(*board, legal);
    generate_pseudo(*board, GenKind::kAll, pseudo);
    EXPECT_LE(pseudo.size(), kMaxMoves);
    EXPECT_EQ(sorted_raw(legal), sorted_raw(pseudo)) << fen;  // nothing pinned, no check
  }
  Board spread = *Board::from_fen("Q3Q1K1/2Q3Q1/Q6Q/5Q2/1Q1Q3Q/1Q4Q1/nn2Q3/knQ4Q w - - 0 1");
  MoveList many;
  generate_legal(spread, many);
  EXPECT_GT(many.size(), 218);
}

}  // namespace
}  // namespace bookforge::chess
