#include "engine/see.h"

#include <algorithm>

#include "chess/attacks.h"
#include "engine/eval.h"

namespace bookforge::engine {

Score see(const chess::Board& board, chess::Move m) {
  if (m.kind() == chess::Move::kCastling) return 0;
  const chess::Square from = m.from(), to = m.to();
  chess::Color side = chess::color_of(board.piece_on(from));

  // gain[d]: what the side making capture d has won if the sequence stops right after it.
  Score gain[32];
  int d = 0;
  chess::PieceType on_square = chess::type_of(board.piece_on(from));  // the piece that will be taken next
  chess::Bitboard occupied = board.pieces() ^ chess::square_bb(from);
  if (m.kind() == chess::Move::kEnPassant) {
    gain[0] = kPieceValue[chess::kPawn];
    occupied ^= chess::square_bb(chess::Square(side == chess::kWhite ? to - 8 : to + 8));
  } else {
    const chess::Piece victim = board.piece_on(to);
    gain[0] = victim == chess::kNoPiece ? 0 : kPieceValue[chess::type_of(victim)];
  }
  if (m.kind() == chess::Move::kPromotion) {
    gain[0] += kPieceValue[m.promotion()] - kPieceValue[chess::kPawn];
    on_square = m.promotion();
  }

  const chess::Bitboard diagonal = board.pieces(chess::kBishop) | board.pieces(chess::kQueen);
  const chess::Bitboard straight = board.pieces(chess::kRook) | board.pieces(chess::kQueen);
  chess::Bitboard attackers = board.attackers_to(to, occupied) & occupied;

  for (;;) {
    side = ~side;
    const chess::Bitboard mine = attackers & board.pieces(side);
    if (!mine) break;
    chess::PieceType pt = chess::kPawn;
    while (!(mine & board.pieces(pt))) pt = chess::PieceType(pt + 1);
    // A king may only take last: if the other side still attacks the square, it cannot.
    if (pt == chess::kKing && (attackers & board.pieces(~side))) break;

    ++d;
    gain[d] = kPieceValue[on_square] - gain[d - 1];
    if (d == 31) break;

    occupied ^= chess::square_bb(chess::lsb(mine & board.pieces(pt)));
    // Pieces behind the one that just moved join in (x-rays).
    if (pt == chess::kPawn || pt == chess::kBishop || pt == chess::kQueen)
      attackers |= chess::bishop_attacks(to, occupied) & diagonal;
    if (pt == chess::kRook || pt == chess::kQueen) attackers |= chess::rook_attacks(to, occupied) & straight;
    attackers &= occupied;
    on_square = pt;
  }
  // Each side may decline to continue: fold the list back from the last capture.
  for (; d > 0; --d) gain[d - 1] = -std::max(-gain[d - 1], gain[d]);
  return gain[0];
}

}  // namespace bookforge::engine
