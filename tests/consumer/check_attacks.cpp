// The inline slider lookups of chess/attacks.h, compiled here with the consumer's own flags,
// must index the tables the installed library filled: PEXT in one and magics in the other
// give wrong attacks without any error. For every square of every position of a short game,
// compares the attackers computed here with Board::attackers_to (compiled into the library).
// Prints the first difference and exits 1; prints "attacks agree" otherwise.
#include <cstdio>
#include <iterator>

#include "chess/attacks.h"
#include "chess/board.h"
#include "chess/san.h"

namespace {

bookforge::chess::Bitboard attackers_here(const bookforge::chess::Board& board, bookforge::chess::Square s) {
  using namespace bookforge;
  const chess::Bitboard occupied = board.pieces();
  const chess::Bitboard diagonal = board.pieces(chess::kBishop) | board.pieces(chess::kQueen);
  const chess::Bitboard straight = board.pieces(chess::kRook) | board.pieces(chess::kQueen);
  return (chess::pawn_attacks(chess::kBlack, s) & board.pieces(chess::kWhite, chess::kPawn)) |
         (chess::pawn_attacks(chess::kWhite, s) & board.pieces(chess::kBlack, chess::kPawn)) |
         (chess::knight_attacks(s) & board.pieces(chess::kKnight)) |
         (chess::king_attacks(s) & board.pieces(chess::kKing)) |
         (chess::bishop_attacks(s, occupied) & diagonal) | (chess::rook_attacks(s, occupied) & straight);
}

}  // namespace

int main() {
  // An open game: sliders blocked and unblocked along files, ranks and both diagonals.
  const char* const kGame[] = {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "c2c3", "g8f6",
                               "d2d4", "e5d4", "c3d4", "c5b4", "b1c3", "f6e4", "d1b3", "d7d5",
                               "c4d5", "d8d5", "b3d5", "c8e6", "d5e4", "a8d8"};
  bookforge::chess::Board board;
  int ply = 0;
  for (;;) {
    for (int s = 0; s < 64; ++s) {
      const auto square = bookforge::chess::Square(s);
      if (attackers_here(board, square) != board.attackers_to(square)) {
        std::printf("attackers of square %d differ after %d plies (%s)\n", s, ply, board.fen().c_str());
        return 1;
      }
    }
    if (ply == int(std::size(kGame))) break;
    const bookforge::chess::Move move = bookforge::chess::uci_to_move(board, kGame[ply]);
    if (move == bookforge::chess::Move::none()) return std::printf("illegal move %s\n", kGame[ply]), 1;
    bookforge::chess::UndoInfo undo;
    board.make_move(move, undo);
    ++ply;
  }
  std::printf("attacks agree\n");
  return 0;
}
