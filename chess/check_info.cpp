#include "chess/check_info.h"

#include "chess/attacks.h"

namespace bookforge::chess {

CheckInfo::CheckInfo(const Board& board) {
  const Color us = board.side_to_move(), them = ~us;
  king_ = board.king_square(them);
  const Bitboard occupied = board.pieces();
  check_squares_[kPawn] = pawn_attacks(them, king_);
  check_squares_[kKnight] = knight_attacks(king_);
  check_squares_[kBishop] = bishop_attacks(king_, occupied);
  check_squares_[kRook] = rook_attacks(king_, occupied);
  check_squares_[kQueen] = check_squares_[kBishop] | check_squares_[kRook];
  check_squares_[kKing] = 0;

  // Own sliders aimed at the king through exactly one piece, which is ours: moving it off the
  // line gives check.
  Bitboard snipers = (bishop_attacks(king_, 0) & (board.pieces(us, kBishop) | board.pieces(us, kQueen))) |
                     (rook_attacks(king_, 0) & (board.pieces(us, kRook) | board.pieces(us, kQueen)));
  while (snipers) {
    const Bitboard blockers = between_bb(king_, pop_lsb(snipers)) & occupied;
    if (blockers && !(blockers & (blockers - 1)) && (blockers & board.pieces(us))) discoverers_ |= blockers;
  }
}

bool CheckInfo::gives_check(const Board& board, Move m) const {
  // Castling, en passant and promotions change more than one square: rare, so ask the board.
  if (m.kind() != Move::kNormal) return board.gives_check(m);
  const Square from = m.from(), to = m.to();
  if (check_squares_[type_of(board.piece_on(from))] & square_bb(to)) return true;
  return (discoverers_ & square_bb(from)) && !(line_bb(from, king_) & square_bb(to));
}

}  // namespace bookforge::chess
