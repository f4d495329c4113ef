// UCI text and the Polyglot move encoding.
#include <gtest/gtest.h>

#include "chess/move_sequence.h"
#include "chess/movegen.h"
#include "chess/san.h"
#include "tree_walk.h"

namespace bookforge::chess {
namespace {

TEST(Notation, UciText) {
  Board board;
  EXPECT_EQ(move_to_uci(Move(kE2, kE4)), "e2e4");
  EXPECT_EQ(move_to_uci(Move(kE7, kE8, Move::kPromotion, kQueen)), "e7e8q");
  EXPECT_EQ(move_to_uci(Move(kB2, kA1, Move::kPromotion, kKnight)), "b2a1n");
  EXPECT_EQ(move_to_uci(Move(kE1, kH1, Move::kCastling)), "e1g1");
  EXPECT_EQ(move_to_uci(Move(kE8, kA8, Move::kCastling)), "e8c8");
  EXPECT_EQ(move_to_uci(Move::none()), "0000");
  EXPECT_EQ(uci_to_move(board, "e2e4"), Move(kE2, kE4));
  EXPECT_EQ(uci_to_move(board, "g1f3"), Move(kG1, kF3));
  EXPECT_EQ(uci_to_move(board, "e2e5"), Move::none());
  EXPECT_EQ(uci_to_move(board, "e7e5"), Move::none());  // not White's piece
  EXPECT_EQ(uci_to_move(board, "e2e4q"), Move::none());
  EXPECT_EQ(uci_to_move(board, "i2i4"), Move::none());
  EXPECT_EQ(uci_to_move(board, "e2"), Move::none());
  EXPECT_EQ(uci_to_move(board, ""), Move::none());

  Board castle = *Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
  EXPECT_EQ(uci_to_move(castle, "e8g8"), Move(kE8, kH8, Move::kCastling));
  EXPECT_EQ(uci_to_move(castle, "e8h8"), Move(kE8, kH8, Move::kCastling));
  EXPECT_EQ(uci_to_move(castle, "e8c8"), Move(kE8, kA8, Move::kCastling));
  EXPECT_EQ(uci_to_move(castle, "e8f8"), Move(kE8, kF8));

  Board ep = *Board::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
  EXPECT_EQ(uci_to_move(ep, "e5f6"), Move(kE5, kF6, Move::kEnPassant));
  EXPECT_EQ(uci_to_move(ep, "e5d6"), Move::none());
}

TEST(Notation, PolyglotEncoding) {
  EXPECT_EQ(move_to_polyglot(Move(kE2, kE4)), (kE2 << 6) | kE4);
  EXPECT_EQ(move_to_polyglot(Move(kE1, kH1, Move::kCastling)), (kE1 << 6) | kH1);
  EXPECT_EQ(move_to_polyglot(Move(kA7, kA8, Move::kPromotion, kKnight)), (1 << 12) | (kA7 << 6) | kA8);
  EXPECT_EQ(move_to_polyglot(Move(kA7, kA8, Move::kPromotion, kQueen)), (4 << 12) | (kA7 << 6) | kA8);
  Board board;
  EXPECT_EQ(polyglot_to_move(board, (kG1 << 6) | kF3), Move(kG1, kF3));
  EXPECT_EQ(polyglot_to_move(board, (kG1 << 6) | kG3), Move::none());
}

// Every legal move survives UCI and Polyglot round trips; every 16-bit Polyglot value gives
// either none() or a legal move.
TEST(Notation, RoundTripsAndArbitraryValues) {
  for (const char* fen : test::kWalkFens) {
    Board board = *Board::from_fen(fen);
    auto check = [](Board& b) {
      MoveList list;
      generate_legal(b, list);
      for (Move m : list) {
        ASSERT_EQ(uci_to_move(b, move_to_uci(m)), m) << b.fen() << " " << move_to_uci(m);
        ASSERT_EQ(polyglot_to_move(b, move_to_polyglot(m)), m) << b.fen();
      }
    };
    check(board);
    test::walk_tree(board, 2, [&](Board& b, Move) { check(b); });
    int found = 0;
    for (uint32_t pg = 0; pg < 65536; ++pg) {
      Move m = polyglot_to_move(board, uint16_t(pg));
      if (m == Move::none()) continue;
      ASSERT_TRUE(board.is_legal(m));
      ASSERT_EQ(move_to_polyglot(m), pg);
      ++found;
    }
    MoveList list;
    generate_legal(board, list);
    EXPECT_EQ(found, list.size()) << fen;
  }
}

TEST(Notation, PlayMoves) {
  Board board;
  ASSERT_TRUE(play_moves(board, "1.e4 d5 2. e5 f5 3.e1e2 e8f7").ok());
  EXPECT_EQ(board.fen(), "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 2 4");
  Board empty;
  ASSERT_TRUE(play_moves(empty, "  ").ok());
  EXPECT_EQ(empty.fen(), kStartFen);

  Board bad;
  Status s = play_moves(bad, "e4 e5 Bb4 Nc6");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("move 3 \"Bb4\""), std::string::npos) << s.error().message;
  EXPECT_EQ(bad.fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2");  // before the bad move
}

}  // namespace
}  // namespace bookforge::chess
