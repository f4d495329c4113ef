// Castling geometry of standard chess. A castling move is stored as "king takes own rook":
//
//            queen side                       king side
//   a1 b1 c1 d1 e1                     e1 f1 g1 h1
//   R  .  K< R< K    (e1a1: king c1,   K  R> K> R    (e1h1: king g1, rook f1)
//                     rook d1)
//
// and the same on rank 8 for Black.
#pragma once

#include "chess/types.h"

namespace bookforge::chess {

constexpr bool castles_kingside(Move m) { return m.to() > m.from(); }
constexpr Square castling_king_to(Move m) {
  return Square(castles_kingside(m) ? m.from() + 2 : m.from() - 2);
}
constexpr Square castling_rook_to(Move m) {
  return Square(castles_kingside(m) ? m.from() + 1 : m.from() - 1);
}

constexpr CastlingRight castling_right(Color c, bool kingside) {
  return CastlingRight((kingside ? kWhiteKingSide : kWhiteQueenSide) << (2 * c));
}
constexpr Square castling_king_from(Color c) { return c == kWhite ? kE1 : kE8; }
constexpr Square castling_rook_from(Color c, bool kingside) {
  return make_square(kingside ? 7 : 0, c == kWhite ? 0 : 7);
}
constexpr Move castling_move(Color c, bool kingside) {
  return Move(castling_king_from(c), castling_rook_from(c, kingside), Move::kCastling);
}

}  // namespace bookforge::chess
