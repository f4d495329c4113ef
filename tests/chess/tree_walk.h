// Test helper: visits every node of the legal move tree to a given depth, calling
// visit(board, move_just_played) after each make_move (and checking nothing itself).
#pragma once

#include "chess/movegen.h"

namespace bookforge::test {

template <class Visit>
void walk_tree(chess::Board& board, int depth, Visit&& visit) {
  if (depth == 0) return;
  chess::MoveList list;
  chess::generate_legal(board, list);
  for (chess::Move m : list) {
    chess::UndoInfo undo;
    board.make_move(m, undo);
    visit(board, m);
    walk_tree(board, depth - 1, visit);
    board.unmake_move(m, undo);
  }
}

// A few positions rich in castling, en passant, promotions, pins and checks.
inline constexpr const char* kWalkFens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
};

}  // namespace bookforge::test
