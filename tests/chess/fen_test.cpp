// FEN parsing and printing: round trips, normalisation, and rejection of malformed input with
// a message naming the field.
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "chess/board.h"
#include "chess/zobrist.h"

namespace bookforge::chess {
namespace {

TEST(Fen, DefaultBoardIsStartPosition) {
  Board board;
  EXPECT_EQ(board.fen(), kStartFen);
  EXPECT_EQ(board.side_to_move(), kWhite);
  EXPECT_EQ(board.castling_rights(), kAllCastling);
  EXPECT_EQ(board.piece_on(kE1), make_piece(kWhite, kKing));
  EXPECT_EQ(board.piece_on(kD8), make_piece(kBlack, kQueen));
  EXPECT_EQ(board.king_square(kBlack), kE8);
  EXPECT_TRUE(board.is_ok());
}

TEST(Fen, RoundTrip) {
  const char* fens[] = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
      "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 99 70",
      "r3k3/8/8/8/8/8/8/4K2R b Kq - 12 40",
      "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
      "7k/8/8/8/8/8/8/K7 b - - 65535 65535",
  };
  for (const char* fen : fens) {
    auto board = Board::from_fen(fen);
    ASSERT_TRUE(board.ok()) << fen << ": " << board.error().message;
    EXPECT_EQ(board->fen(), fen);
    EXPECT_TRUE(board->is_ok()) << fen;
    auto again = Board::from_fen(board->fen(), board->chess960());
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->key(), board->key());
  }
}

TEST(Fen, FieldsAndClocks) {
  auto board = Board::from_fen("r3k2r/8/8/8/3pP3/8/8/R3K2R b Qk e3 7 31");
  ASSERT_TRUE(board.ok()) << board.error().message;
  EXPECT_EQ(board->side_to_move(), kBlack);
  EXPECT_EQ(board->castling_rights(), kWhiteQueenSide | kBlackKingSide);
  EXPECT_EQ(board->ep_square(), kE3);
  EXPECT_EQ(board->halfmove_clock(), 7);
  EXPECT_EQ(board->fullmove_number(), 31);
  EXPECT_EQ(board->game_ply(), 61);
}

TEST(Fen, TolerantForms) {
  // Clocks may be missing; extra spaces are fine; a fullmove number of 0 reads as 1.
  auto four = Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
  ASSERT_TRUE(four.ok());
  EXPECT_EQ(four->fen(), kStartFen);
  auto spaced = Board::from_fen("  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w\tKQkq -  0  1 ");
  ASSERT_TRUE(spaced.ok());
  EXPECT_EQ(spaced->fen(), kStartFen);
  auto zero = Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0");
  ASSERT_TRUE(zero.ok());
  EXPECT_EQ(zero->fullmove_number(), 1);
  // Castling letters in any order print in KQkq order.
  auto order = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1");
  ASSERT_TRUE(order.ok());
  EXPECT_EQ(order->castling_rights(), kAllCastling);
}

TEST(Fen, StaleCastlingRightsAreDropped) {
  // The h1 rook is gone and the black king has left e8: only Q survives.
  auto board = Board::from_fen("r4k1r/8/8/8/8/8/8/R3K3 w KQkq - 0 1");
  ASSERT_TRUE(board.ok()) << board.error().message;
  EXPECT_EQ(board->castling_rights(), kWhiteQueenSide);
  EXPECT_EQ(board->fen(), "r4k1r/8/8/8/8/8/8/R3K3 w Q - 0 1");
  EXPECT_EQ(board->key(), polyglot_key_from_scratch(*board));
}

void expect_rejected(const char* fen, const std::string& field_text) {
  auto board = Board::from_fen(fen);
  ASSERT_FALSE(board.ok()) << "accepted: " << fen;
  EXPECT_NE(board.error().message.find(field_text), std::string::npos)
      << fen << " gave: " << board.error().message << " (wanted: " << field_text << ")";
}

TEST(Fen, MalformedRejectedWithField) {
  expect_rejected("", "has 0 fields");
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "has 3 fields");
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "more than 6 fields");
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
                  "piece placement: bad character 'X'");
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN0 w KQkq - 0 1",
                  "piece placement: bad character '0'");
  expect_rejected("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                  "piece placement: bad character '9'");
  expect_rejected("rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 8 is too long");
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1R w KQkq - 0 1", "rank 1 is too long");
  expect_rejected("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 7 has 7 squares");
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "7 ranks, not 8");
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "more than 8 ranks");
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "rank 1 has 7 squares");
  expect_rejected("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "black has 0 kings");
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w kq - 0 1", "white has 2 kings");
  expect_rejected("rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1", "pawn on rank 1 or 8");
  expect_rejected("4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "pawn on rank 1 or 8");
  expect_rejected("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "black has more than 8 pawns");
  expect_rejected("QQQQkQQQ/QQQQQQQQ/QQ6/8/8/8/8/4K3 w - - 0 1", "white has more than 16 pieces");
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move: \"x\"");
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1", "side to move");
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1",
                  "castling rights: bad character 'x'");
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKq - 0 1",
                  "castling rights: 'K' given twice");
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAhi - 0 1",
                  "castling rights: bad character 'i'");
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KH - 0 1",
                  "castling rights: 'H' given twice");
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "en passant: \"e9\"");
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e 0 1", "en passant");
  expect_rejected("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 1",
                  "en passant: e6 is on the wrong rank");
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1", "en passant: no pawn");
  expect_rejected("rnbqkbnr/pppppppp/8/8/4P3/4P3/PPP2PPP/RNBQKBNR b KQkq e3 0 1", "en passant: no pawn");
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove clock: \"x\"");
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "halfmove clock");
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1.5", "fullmove number");
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999", "fullmove number");
  expect_rejected("4k3/8/8/8/8/8/8/4K2r b - - 0 1", "the side not to move is in check");
  expect_rejected("8/8/8/8/8/8/8/3kK3 w - - 0 1", "the side not to move is in check");
}

// Mutated FENs: any outcome is fine except a crash or an accepted board that fails is_ok().
TEST(Fen, ArbitraryTextNeverCrashes) {
  const std::string seeds[] = {
      std::string(kStartFen),
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
  };
  const std::string alphabet = "pnbrqkPNBRQK12345678/ wb-KQkqabcdefgh0123456789x\t";
  std::mt19937 rng(12345);
  int accepted = 0;
  for (int i = 0; i < 200000; ++i) {
    std::string fen = seeds[rng() % 3];
    const int edits = 1 + int(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t pos = rng() % (fen.size() + 1);
      switch (rng() % 3) {
        case 0:
          fen.insert(pos, 1, alphabet[rng() % alphabet.size()]);
          break;
        case 1:
          if (pos < fen.size()) fen.erase(pos, 1);
          break;
        default:
          if (pos < fen.size()) fen[pos] = char(rng() % 256);
      }
    }
    auto board = Board::from_fen(fen);
    if (!board.ok()) continue;
    ++accepted;
    ASSERT_TRUE(board->is_ok()) << fen;
    auto again = Board::from_fen(board->fen(), board->chess960());
    ASSERT_TRUE(again.ok()) << board->fen();
    ASSERT_EQ(again->fen(), board->fen());
  }
  EXPECT_GT(accepted, 1000);
}

}  // namespace
}  // namespace bookforge::chess
