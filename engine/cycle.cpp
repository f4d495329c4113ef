#include "engine/cycle.h"

#include <vector>

#include "chess/attacks.h"
#include "chess/zobrist.h"

namespace bookforge::engine {
namespace {

// Open addressing on the low bits of the key difference (the differences are random 64-bit
// values, so their low bits spread evenly). 2 colours x 5 piece types x all (a, b) pairs with
// a < b on an empty board: 3,668 moves in 8,192 slots.
struct ReversibleMoves {
  static constexpr size_t kSize = 8192;
  struct Slot {
    uint64_t diff = 0;
    chess::Piece piece = chess::kNoPiece;
    chess::Square a = chess::kNoSquare, b = chess::kNoSquare;
  };
  std::vector<Slot> slots = std::vector<Slot>(kSize);

  ReversibleMoves() {
    for (chess::Color c : {chess::kWhite, chess::kBlack})
      for (chess::PieceType pt : {chess::kKnight, chess::kBishop, chess::kRook, chess::kQueen, chess::kKing})
        for (int a = 0; a < 64; ++a) {
          chess::Bitboard targets = chess::piece_attacks(pt, chess::Square(a), 0);
          while (targets) {
            const chess::Square b = chess::pop_lsb(targets);
            if (b < a) continue;
            const chess::Piece p = chess::make_piece(c, pt);
            const uint64_t diff =
                chess::zobrist::piece_key(p, chess::Square(a)) ^ chess::zobrist::piece_key(p, b);
            size_t i = diff & (kSize - 1);
            while (slots[i].piece != chess::kNoPiece) i = (i + 1) & (kSize - 1);
            slots[i] = {diff, p, chess::Square(a), b};
          }
        }
  }
};
const ReversibleMoves kMoves;

}  // namespace

bool reaches_in_one_move(const chess::Board& board, uint64_t earlier_key) {
  const uint64_t diff = board.key() ^ earlier_key ^ chess::zobrist::kRandom64[chess::zobrist::kTurnOffset];
  for (size_t i = diff & (ReversibleMoves::kSize - 1);; i = (i + 1) & (ReversibleMoves::kSize - 1)) {
    const ReversibleMoves::Slot& s = kMoves.slots[i];
    if (s.piece == chess::kNoPiece) return false;
    if (s.diff != diff) continue;
    if (chess::color_of(s.piece) != board.side_to_move()) return false;
    // The piece stands on one of the two squares, the other is empty, nothing in between. The
    // move is then legal too: the earlier position, which it brings about, is a legal position
    // with the other side to move, so the mover's king is not left in check.
    const chess::Square from = board.piece_on(s.a) == s.piece ? s.a : s.b;
    const chess::Square to = from == s.a ? s.b : s.a;
    return board.piece_on(from) == s.piece && board.piece_on(to) == chess::kNoPiece &&
           !(chess::between_bb(s.a, s.b) & board.pieces());
  }
}

}  // namespace bookforge::engine
