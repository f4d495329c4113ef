#include "engine/see.h"

#include <algorithm>

#include "chess/attacks.h"
#include "engine/eval.h"

namespace bookforge {

Score see(const Board& board, Move m) {
  if (m.kind() == Move::kCastling) return 0;
  const Square from = m.from(), to = m.to();
  Color side = color_of(board.piece_on(from));

  // gain[d]: what the side making capture d has won if the sequence stops right after it.
  Score gain[32];
  int d = 0;
  PieceType on_square = type_of(board.piece_on(from));  // the piece that will be taken next
  Bitboard occupied = board.pieces() ^ square_bb(from);
  if (m.kind() == Move::kEnPassant) {
    gain[0] = kPieceValue[kPawn];
    occupied ^= square_bb(Square(side == kWhite ? to - 8 : to + 8));
  } else {
    const Piece victim = board.piece_on(to);
    gain[0] = victim == kNoPiece ? 0 : kPieceValue[type_of(victim)];
  }
  if (m.kind() == Move::kPromotion) {
    gain[0] += kPieceValue[m.promotion()] - kPieceValue[kPawn];
    on_square = m.promotion();
  }

  const Bitboard diagonal = board.pieces(kBishop) | board.pieces(kQueen);
  const Bitboard straight = board.pieces(kRook) | board.pieces(kQueen);
  Bitboard attackers = board.attackers_to(to, occupied) & occupied;

  for (;;) {
    side = ~side;
    const Bitboard mine = attackers & board.pieces(side);
    if (!mine) break;
    PieceType pt = kPawn;
    while (!(mine & board.pieces(pt))) pt = PieceType(pt + 1);
    // A king may only take last: if the other side still attacks the square, it cannot.
    if (pt == kKing && (attackers & board.pieces(~side))) break;

    ++d;
    gain[d] = kPieceValue[on_square] - gain[d - 1];
    if (d == 31) break;

    occupied ^= square_bb(lsb(mine & board.pieces(pt)));
    // Pieces behind the one that just moved join in (x-rays).
    if (pt == kPawn || pt == kBishop || pt == kQueen) attackers |= bishop_attacks(to, occupied) & diagonal;
    if (pt == kRook || pt == kQueen) attackers |= rook_attacks(to, occupied) & straight;
    attackers &= occupied;
    on_square = pt;
  }
  // Each side may decline to continue: fold the list back from the last capture.
  for (; d > 0; --d) gain[d - 1] = -std::max(-gain[d - 1], gain[d]);
  return gain[0];
}

}  // namespace bookforge
