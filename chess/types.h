// Basic chess types shared by every module: squares, pieces, colours and the 16-bit move.
#pragma once

#include <cstdint>

namespace bookforge::chess {

using Bitboard = uint64_t;

enum Color : uint8_t { kWhite = 0, kBlack = 1 };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum PieceType : uint8_t { kPawn = 0, kKnight, kBishop, kRook, kQueen, kKing, kNoPieceType };

// A piece packs its colour in bit 3 and its type in bits 0-2; kNoPiece marks an empty square.
enum Piece : uint8_t { kNoPiece = 15 };
constexpr Piece make_piece(Color c, PieceType pt) { return Piece((c << 3) | pt); }
constexpr Color color_of(Piece p) { return Color(p >> 3); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 7); }

// Squares are numbered a1 = 0, b1 = 1, ..., h8 = 63.
// clang-format off
enum Square : uint8_t {
  kA1, kB1, kC1, kD1, kE1, kF1, kG1, kH1,
  kA2, kB2, kC2, kD2, kE2, kF2, kG2, kH2,
  kA3, kB3, kC3, kD3, kE3, kF3, kG3, kH3,
  kA4, kB4, kC4, kD4, kE4, kF4, kG4, kH4,
  kA5, kB5, kC5, kD5, kE5, kF5, kG5, kH5,
  kA6, kB6, kC6, kD6, kE6, kF6, kG6, kH6,
  kA7, kB7, kC7, kD7, kE7, kF7, kG7, kH7,
  kA8, kB8, kC8, kD8, kE8, kF8, kG8, kH8,
  kNoSquare
};
// clang-format on
constexpr Square make_square(int file, int rank) { return Square(rank * 8 + file); }
constexpr int file_of(Square s) { return s & 7; }
constexpr int rank_of(Square s) { return s >> 3; }
constexpr Bitboard square_bb(Square s) { return Bitboard(1) << s; }

// Castling rights as a 4-bit mask.
enum CastlingRight : uint8_t {
  kNoCastling = 0,
  kWhiteKingSide = 1,
  kWhiteQueenSide = 2,
  kBlackKingSide = 4,
  kBlackQueenSide = 8,
  kAllCastling = 15
};

// A move in 16 bits:
//
//   15 14 | 13 12 | 11 ......... 6 | 5 .......... 0
//   kind  | promo |  from square   |   to square
//
// kind: 0 normal, 1 promotion, 2 en passant, 3 castling. promo: knight, bishop, rook, queen
// (PieceType - 1). Castling is encoded as "king takes own rook" (e1h1, e1a1, e8h8, e8a8), which
// is also how Polyglot books store it; UCI text prints the king's destination instead.
class Move {
 public:
  enum Kind : uint16_t { kNormal = 0, kPromotion = 1, kEnPassant = 2, kCastling = 3 };

  constexpr Move() = default;
  constexpr explicit Move(uint16_t raw) : raw_(raw) {}
  constexpr Move(Square from, Square to, Kind kind = kNormal, PieceType promo = kKnight)
      : raw_(uint16_t(to | (from << 6) | ((promo - kKnight) << 12) | (kind << 14))) {}

  static constexpr Move none() { return Move(); }
  // The null move ("--" or "Z0" in PGN): passes the turn. Distinct from none().
  static constexpr Move null() { return Move(uint16_t(65)); }

  constexpr Square from() const { return Square((raw_ >> 6) & 63); }
  constexpr Square to() const { return Square(raw_ & 63); }
  constexpr Kind kind() const { return Kind(raw_ >> 14); }
  constexpr PieceType promotion() const { return PieceType(((raw_ >> 12) & 3) + kKnight); }
  constexpr uint16_t raw() const { return raw_; }
  constexpr bool is_ok() const { return from() != to(); }  // false for none() and null()

  constexpr bool operator==(const Move&) const = default;

 private:
  uint16_t raw_ = 0;
};

}  // namespace bookforge::chess
