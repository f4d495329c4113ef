#include "chess/check_info.h"

#include <gtest/gtest.h>

#include "chess/movegen.h"

namespace bookforge::chess {
namespace {

// Walks the tree of legal moves and compares CheckInfo with Board::gives_check for every
// pseudo-legal move on the way (discovered checks, castling, en passant, promotions...).
uint64_t compare_tree(Board& board, int depth) {
  MoveList pseudo;
  generate_pseudo(board, GenKind::kAll, pseudo);
  const CheckInfo info(board);
  uint64_t compared = 0;
  for (Move m : pseudo) {
    EXPECT_EQ(info.gives_check(board, m), board.gives_check(m)) << board.fen() << " " << m.raw();
    ++compared;
  }
  if (depth == 0) return compared;
  MoveList legal;
  generate_legal(board, legal);
  for (Move m : legal) {
    UndoInfo undo;
    board.make_move(m, undo);
    compared += compare_tree(board, depth - 1);
    board.unmake_move(m, undo);
  }
  return compared;
}

TEST(CheckInfo, AgreesWithTheBoard) {
  const char* fens[] = {
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
      "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
      "4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 2",   // en passant that uncovers a rook line
      "3k4/8/8/8/8/8/1B6/R3K2R w KQ - 0 1",  // castling into check
  };
  uint64_t total = 0;
  for (const char* fen : fens) {
    Result<Board> b = Board::from_fen(fen);
    ASSERT_TRUE(b.ok()) << fen;
    total += compare_tree(*b, 2);
  }
  EXPECT_GT(total, 10000u);
}

}  // namespace
}  // namespace bookforge::chess
