// A CTG position: the board as the side to move sees it (book/ctg/format.h), coded square by
// square, file by file (a1, a2, ..., a8, b1, ..., h8), each square by a prefix code read from
// the most significant bit of each byte on:
//
//   empty 0        pawn 11c       knight 1001c   bishop 1010c   rook 1011c
//   queen 10001c   king 10000c    (c: 0 for the side to move, 1 for the other side)
//
// After the 64 squares, zero bits pad the position so that its flags end its last byte:
//
//   ... board ... | 0 ... 0 | en passant file (3 bits, if bit 5 of the header) | castling (4 bits,
//                                                            if bit 6 of the header)
//
// castling, from high bit to low: the other side's king side, its queen side, the side to
// move's king side, its queen side. The en passant file is given only when a pawn of the side
// to move stands beside the pawn that has just moved two squares, whether or not taking it is
// legal; mirrored with the board.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "chess/board.h"

namespace bookforge::book {

inline constexpr uint8_t kCtgNoEnPassant = 8;

// Castling bits in CtgBoard::castling (the order of the flags above).
inline constexpr uint8_t kCtgOwnQueenSide = 1, kCtgOwnKingSide = 2, kCtgTheirQueenSide = 4,
                         kCtgTheirKingSide = 8;

struct CtgBoard {
  // Indexed by chess::Square in the stored orientation; the side to move plays White.
  std::array<chess::Piece, 64> squares{};
  uint8_t castling = 0;                  // kCtgOwn*/kCtgTheir* bits
  uint8_t en_passant = kCtgNoEnPassant;  // a file, or kCtgNoEnPassant

  // The board as bytes, for indexing positions (one byte per square, then the flags).
  std::string index_key() const;
};

// How a real position was turned to be stored: upside down with colours swapped (Black to
// move), and mirrored a <-> h (no castling, the side to move's king on files a-d).
struct CtgOrientation {
  bool flipped = false;
  bool mirrored = false;

  // A square of the stored board on the real board (the map is its own inverse).
  chess::Square real_square(chess::Square stored) const {
    int file = chess::file_of(stored), rank = chess::rank_of(stored);
    if (mirrored) file = 7 - file;
    if (flipped) rank = 7 - rank;
    return chess::make_square(file, rank);
  }
};

// The stored form of a real position, and how it was turned.
CtgBoard ctg_board_of(const chess::Board& board, CtgOrientation& orientation);

// The board of a stored position (its bytes from the header on, as long as the header says),
// or nullopt when the bits do not make 64 squares followed by the flags the header announces.
std::optional<CtgBoard> decode_ctg_board(std::span<const unsigned char> position);

}  // namespace bookforge::book
