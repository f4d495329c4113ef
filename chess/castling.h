// Castling geometry. A castling move is stored as "king takes own rook", in standard chess and
// in Chess960 alike; the king and the rook always end on the same squares:
//
//            a side ("queen side")            h side ("king side")
//   a1 b1 c1 d1 e1                     e1 f1 g1 h1
//   R  .  K< R< K    (e1a1: king c1,   K  R> K> R    (e1h1: king g1, rook f1)
//                     rook d1)
//
// In Chess960 the king and the rooks start on any files (the king between its rooks), so the
// move "king takes rook" names the rook, and the side follows from where the rook stands.
// The same on rank 8 for Black.
#pragma once

#include <bit>

#include "chess/types.h"

namespace bookforge::chess {

// The h side: the rook stands to the right of the king.
constexpr bool castles_kingside(Move m) { return m.to() > m.from(); }
constexpr Square castling_king_to(Move m) {
  return make_square(castles_kingside(m) ? 6 : 2, rank_of(m.from()));
}
constexpr Square castling_rook_to(Move m) {
  return make_square(castles_kingside(m) ? 5 : 3, rank_of(m.from()));
}

constexpr CastlingRight castling_right(Color c, bool kingside) {
  return CastlingRight((kingside ? kWhiteKingSide : kWhiteQueenSide) << (2 * c));
}
// 0 for K, 1 for Q, 2 for k, 3 for q: the bit of the right, and the Polyglot key's entry.
constexpr int castling_index(CastlingRight r) { return std::countr_zero(unsigned(r)) & 3; }
constexpr Color castling_color(CastlingRight r) { return r >= kBlackKingSide ? kBlack : kWhite; }

// The home squares of standard chess.
constexpr Square castling_king_from(Color c) { return c == kWhite ? kE1 : kE8; }
constexpr Square castling_rook_from(Color c, bool kingside) {
  return make_square(kingside ? 7 : 0, c == kWhite ? 0 : 7);
}

}  // namespace bookforge::chess
