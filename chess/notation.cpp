// Machine notations of a move: UCI text and the Polyglot encoding (chess/polyglot_move.h).
#include <string>

#include "chess/castling.h"
#include "chess/polyglot_move.h"
#include "chess/san.h"

namespace bookforge::chess {
namespace {

// Completes bare from/to squares (and promotion) into a Move of the right kind for this
// position: castling when the king goes onto its own rook, en passant onto the ep square.
Move complete_move(const Board& board, Square from, Square to, PieceType promo) {
  if (promo != kNoPieceType) return Move(from, to, Move::kPromotion, promo);
  const Piece pc = board.piece_on(from);
  if (pc == kNoPiece) return Move::none();
  const Color us = color_of(pc);
  if (type_of(pc) == kKing && board.piece_on(to) == make_piece(us, kRook))
    return Move(from, to, Move::kCastling);
  if (type_of(pc) == kPawn && to == board.ep_square() && file_of(from) != file_of(to))
    return Move(from, to, Move::kEnPassant);
  return Move(from, to);
}

Move legal_or_none(const Board& board, Move m) {
  return m != Move::none() && board.is_legal(m) ? m : Move::none();
}

}  // namespace

std::string move_to_uci(Move m, bool chess960) {
  if (!m.is_ok()) return "0000";
  const Square to = m.kind() == Move::kCastling && !chess960 ? castling_king_to(m) : m.to();
  std::string s{char('a' + file_of(m.from())), char('1' + rank_of(m.from())), char('a' + file_of(to)),
                char('1' + rank_of(to))};
  if (m.kind() == Move::kPromotion) s += "pnbrqk"[m.promotion()];
  return s;
}

Move uci_to_move(const Board& board, std::string_view uci) {
  if (uci.size() != 4 && uci.size() != 5) return Move::none();
  for (int i = 0; i < 4; ++i) {
    const char lo = i % 2 == 0 ? 'a' : '1';
    if (uci[i] < lo || uci[i] > lo + 7) return Move::none();
  }
  const Square from = make_square(uci[0] - 'a', uci[1] - '1');
  Square to = make_square(uci[2] - 'a', uci[3] - '1');
  PieceType promo = kNoPieceType;
  if (uci.size() == 5) {
    switch (uci[4]) {
      case 'n':
        promo = kKnight;
        break;
      case 'b':
        promo = kBishop;
        break;
      case 'r':
        promo = kRook;
        break;
      case 'q':
        promo = kQueen;
        break;
      default:
        return Move::none();
    }
  }
  // In standard chess the king's two-square step from its home square is castling: rewrite it
  // as king takes rook. (In Chess960 a king may step onto g1 or c1 without castling.)
  const Color us = board.side_to_move();
  if (promo == kNoPieceType && !board.chess960() && from == castling_king_from(us) &&
      board.piece_on(from) == make_piece(us, kKing) && rank_of(to) == rank_of(from) &&
      (file_of(to) == 6 || file_of(to) == 2))
    to = castling_rook_from(us, file_of(to) == 6);
  return legal_or_none(board, complete_move(board, from, to, promo));
}

Move polyglot_to_move(const Board& board, uint16_t pg) {
  const int promo_field = (pg >> 12) & 7;
  if ((pg & 0x8000) || promo_field > 4) return Move::none();
  const Square from = Square((pg >> 6) & 63), to = Square(pg & 63);
  const PieceType promo = promo_field ? PieceType(kKnight + promo_field - 1) : kNoPieceType;
  return legal_or_none(board, complete_move(board, from, to, promo));
}

}  // namespace bookforge::chess
