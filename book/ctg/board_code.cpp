#include "book/ctg/board_code.h"

#include "book/ctg/format.h"
#include "chess/castling.h"

namespace bookforge::book {
namespace {

using chess::Piece;

// Reads bits from the most significant end of each byte, in order.
class BitReader {
 public:
  explicit BitReader(std::span<const unsigned char> bytes) : bytes_(bytes) {}
  // The next bit, or -1 past the end.
  int next() {
    if (position_ >= bytes_.size() * 8) return -1;
    const int bit = (bytes_[position_ / 8] >> (7 - position_ % 8)) & 1;
    ++position_;
    return bit;
  }
  size_t position() const { return position_; }

 private:
  std::span<const unsigned char> bytes_;
  size_t position_ = 0;
};

// One square of the code in the header's comment, or nullopt at the end of the bits.
std::optional<Piece> read_square(BitReader& bits) {
  auto take = [&bits](int count, int& value) {
    for (int i = 0; i < count; ++i) {
      const int bit = bits.next();
      if (bit < 0) return false;
      value = value * 2 + bit;
    }
    return true;
  };
  int prefix = 0;
  if (!take(1, prefix)) return std::nullopt;
  if (prefix == 0) return chess::kNoPiece;
  if (!take(1, prefix)) return std::nullopt;
  chess::PieceType type = chess::kPawn;
  if (prefix == 0b11) {
    type = chess::kPawn;
  } else {
    int minor = 0;
    if (!take(2, minor)) return std::nullopt;
    if (minor == 0b00) {  // 1000x: queen or king
      int which = 0;
      if (!take(1, which)) return std::nullopt;
      type = which ? chess::kQueen : chess::kKing;
    } else {
      type = minor == 0b01 ? chess::kKnight : minor == 0b10 ? chess::kBishop : chess::kRook;
    }
  }
  int colour = 0;
  if (!take(1, colour)) return std::nullopt;
  return chess::make_piece(colour ? chess::kBlack : chess::kWhite, type);
}

bool has_castling(const chess::Board& board, chess::Color c, bool kingside) {
  return board.castling_rights() & chess::castling_right(c, kingside);
}

}  // namespace

std::string CtgBoard::index_key() const {
  std::string key(squares.begin(), squares.end());
  key += char(castling);
  key += char(en_passant);
  return key;
}

CtgBoard ctg_board_of(const chess::Board& board, CtgOrientation& orientation) {
  const chess::Color us = board.side_to_move();
  orientation.flipped = us == chess::kBlack;
  orientation.mirrored =
      board.castling_rights() == chess::kNoCastling && chess::file_of(board.king_square(us)) < 4;
  CtgBoard out;
  for (int s = 0; s < 64; ++s) {
    const Piece p = board.piece_on(orientation.real_square(chess::Square(s)));
    out.squares[size_t(s)] =
        p == chess::kNoPiece
            ? chess::kNoPiece
            : chess::make_piece(chess::color_of(p) == us ? chess::kWhite : chess::kBlack, chess::type_of(p));
  }
  if (has_castling(board, us, true)) out.castling |= kCtgOwnKingSide;
  if (has_castling(board, us, false)) out.castling |= kCtgOwnQueenSide;
  if (has_castling(board, ~us, true)) out.castling |= kCtgTheirKingSide;
  if (has_castling(board, ~us, false)) out.castling |= kCtgTheirQueenSide;
  if (const chess::Square ep = board.ep_square(); ep != chess::kNoSquare) {
    // The pawn that moved two squares stands in front of the square it skipped.
    const int rank = orientation.flipped ? 3 : 4;
    const chess::Piece ours = chess::make_piece(us, chess::kPawn);
    for (int file : {chess::file_of(ep) - 1, chess::file_of(ep) + 1})
      if (file >= 0 && file < 8 && board.piece_on(chess::make_square(file, rank)) == ours)
        out.en_passant = uint8_t(orientation.mirrored ? 7 - chess::file_of(ep) : chess::file_of(ep));
  }
  return out;
}

std::optional<CtgBoard> decode_ctg_board(std::span<const unsigned char> position) {
  if (position.size() < 2) return std::nullopt;
  const uint8_t header = position[0];
  BitReader bits(position.subspan(1));
  CtgBoard out;
  for (int file = 0; file < 8; ++file)
    for (int rank = 0; rank < 8; ++rank) {
      const std::optional<Piece> p = read_square(bits);
      if (!p) return std::nullopt;
      out.squares[chess::make_square(file, rank)] = *p;
    }
  const size_t flag_bits = (header & kCtgHasEnPassant ? 3 : 0) + (header & kCtgHasCastling ? 4 : 0);
  if (bits.position() + flag_bits > (position.size() - 1) * 8) return std::nullopt;
  const uint8_t last = position.back();
  if (header & kCtgHasCastling) out.castling = last & 0x0f;
  if (header & kCtgHasEnPassant) out.en_passant = uint8_t((header & kCtgHasCastling ? last >> 4 : last) & 7);
  return out;
}

}  // namespace bookforge::book
