// SAN parsing (strict and tolerant forms, errors) and printing (disambiguation, suffixes).
#include "chess/san.h"

#include <random>
#include <string>

#include <gtest/gtest.h>

#include "chess/movegen.h"

namespace bookforge::chess {
namespace {

Board board_at(const char* fen) {
  auto b = Board::from_fen(fen);
  EXPECT_TRUE(b.ok()) << fen;
  return b.ok() ? *b : Board();
}

void expect_move(const Board& board, std::string_view san, Move want) {
  SanResult r = san_to_move(board, san);
  EXPECT_TRUE(r.ok()) << san << ": " << san_error_message(r.error);
  EXPECT_EQ(r.move, want) << san << " gave " << move_to_uci(r.move);
}

void expect_error(const Board& board, std::string_view san, SanError want) {
  SanResult r = san_to_move(board, san);
  EXPECT_EQ(int(r.error), int(want)) << san << " gave "
                                     << (r.ok() ? move_to_uci(r.move) : san_error_message(r.error));
  if (!r.ok()) {
    EXPECT_EQ(r.move, Move::none());
  }
}

constexpr const char* kCastlingFen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
constexpr const char* kEnPassantFen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
constexpr const char* kPromotionFen = "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1";

TEST(SanParse, PlainMoves) {
  Board start;
  expect_move(start, "e4", Move(kE2, kE4));
  expect_move(start, "e3", Move(kE2, kE3));
  expect_move(start, "Nf3", Move(kG1, kF3));
  expect_move(start, "Nc3", Move(kB1, kC3));
  expect_move(board_at(kCastlingFen), "Kf1", Move(kE1, kF1));
  expect_move(board_at(kCastlingFen), "Rb1", Move(kA1, kB1));
}

TEST(SanParse, Castling) {
  Board b = board_at(kCastlingFen);
  for (const char* s : {"O-O", "0-0", "o-o", "O-O+", "0-0#", "O-O!?"})
    expect_move(b, s, Move(kE1, kH1, Move::kCastling));
  for (const char* s : {"O-O-O", "0-0-0", "O-O-O+"}) expect_move(b, s, Move(kE1, kA1, Move::kCastling));
  // Long algebraic king moves and king takes rook.
  expect_move(b, "e1g1", Move(kE1, kH1, Move::kCastling));
  expect_move(b, "Ke1g1", Move(kE1, kH1, Move::kCastling));
  expect_move(b, "e1c1", Move(kE1, kA1, Move::kCastling));
  expect_move(b, "e1h1", Move(kE1, kH1, Move::kCastling));
  Board black = board_at("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1");
  expect_move(black, "O-O", Move(kE8, kH8, Move::kCastling));
  expect_move(black, "O-O-O", Move(kE8, kA8, Move::kCastling));
}

TEST(SanParse, Suffixes) {
  Board start;
  for (const char* s :
       {"Nf3+", "Nf3#", "Nf3!", "Nf3?", "Nf3!?", "Nf3?!", "Nf3!!", "Nf3??", "Nf3+!", "Nf3#??"})
    expect_move(start, s, Move(kG1, kF3));
}

TEST(SanParse, Promotion) {
  Board b = board_at(kPromotionFen);
  expect_move(b, "e8=Q", Move(kE7, kE8, Move::kPromotion, kQueen));
  expect_move(b, "e8Q", Move(kE7, kE8, Move::kPromotion, kQueen));
  expect_move(b, "e8=N+", Move(kE7, kE8, Move::kPromotion, kKnight));
  expect_move(b, "e8R", Move(kE7, kE8, Move::kPromotion, kRook));
  expect_move(b, "e8q", Move(kE7, kE8, Move::kPromotion, kQueen));
  expect_move(b, "exd8=B", Move(kE7, kD8, Move::kPromotion, kBishop));
  expect_move(b, "exd8Q+", Move(kE7, kD8, Move::kPromotion, kQueen));
  expect_move(b, "e7d8n", Move(kE7, kD8, Move::kPromotion, kKnight));
  expect_move(b, "e7-e8=Q", Move(kE7, kE8, Move::kPromotion, kQueen));
}

TEST(SanParse, PawnAndLongAlgebraicForms) {
  Board start;
  expect_move(start, "Pe4", Move(kE2, kE4));
  expect_move(start, "e2e4", Move(kE2, kE4));
  expect_move(start, "e2-e4", Move(kE2, kE4));
  expect_move(start, "Pe2-e4", Move(kE2, kE4));
  expect_move(start, "Ng1-f3", Move(kG1, kF3));
  expect_move(start, "Ng1f3", Move(kG1, kF3));
  expect_move(start, "g1f3", Move(kG1, kF3));
  Board capture = board_at("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2");
  expect_move(capture, "exd5", Move(kE4, kD5));
  expect_move(capture, "ed5", Move(kE4, kD5));
  expect_move(capture, "e:d5", Move(kE4, kD5));
  expect_move(capture, "e4xd5", Move(kE4, kD5));
  expect_move(capture, "Bb5", Move(kF1, kB5));
}

TEST(SanParse, EnPassant) {
  Board b = board_at(kEnPassantFen);
  for (const char* s : {"exf6", "exf6e.p.", "exf6ep", "exf6e.p.+", "e5f6", "ef6"})
    expect_move(b, s, Move(kE5, kF6, Move::kEnPassant));
  expect_error(b, "exd6", SanError::kNothingToCapture);  // d6 is not the en-passant square
}

// Lower-case b is a file: "bxc3" is a pawn capture, "Bxc3" a bishop capture.
TEST(SanParse, LowerCaseBIsAFile) {
  Board b = board_at("4k3/8/8/8/1b6/2N5/1P6/4K3 b - - 0 1");
  expect_move(b, "Bxc3", Move(kB4, kC3));
  Board w = board_at("4k3/8/8/8/8/2n5/1P1B4/4K3 w - - 0 1");
  expect_move(w, "bxc3", Move(kB2, kC3));
  expect_move(w, "Bxc3", Move(kD2, kC3));
}

TEST(SanParse, Disambiguation) {
  // Knights on b1 and f3 both reach d2; rooks a1 and a5 both reach a3.
  Board b = board_at("4k3/8/8/R7/8/5N2/8/RN2K3 w - - 0 1");
  expect_error(b, "Nd2", SanError::kAmbiguous);
  expect_move(b, "Nbd2", Move(kB1, kD2));
  expect_move(b, "Nfd2", Move(kF3, kD2));
  expect_move(b, "N1d2", Move(kB1, kD2));
  expect_move(b, "Nb1d2", Move(kB1, kD2));
  expect_error(b, "Ra3", SanError::kAmbiguous);
  expect_move(b, "R1a3", Move(kA1, kA3));
  expect_move(b, "R5a3", Move(kA5, kA3));
  // A pinned knight does not make the other one ambiguous.
  Board pinned = board_at("4k3/4r3/8/8/8/5N2/4N3/4K3 w - - 0 1");
  expect_move(pinned, "Nd4", Move(kF3, kD4));
  expect_error(pinned, "Ned4", SanError::kIllegal);
}

TEST(SanParse, Errors) {
  Board start;
  for (const char* s :
       {"", "Z", "Nf9", "Xe4", "hello", "N", "O-O-O-O", "e2e4e5", "Nf3x", "=Q", "e", "i4", "Qd1d1d1", "+"})
    expect_error(start, s, SanError::kSyntax);
  expect_error(start, "Nd4", SanError::kNoSuchPiece);
  expect_error(start, "Bb5", SanError::kNoSuchPiece);
  expect_error(start, "exd5", SanError::kNothingToCapture);
  expect_error(start, "e5", SanError::kNoSuchPiece);
  expect_error(start, "Ke2", SanError::kOwnPiece);  // own pawn there
  expect_error(start, "O-O", SanError::kBadCastling);
  expect_error(start, "O-O-O", SanError::kBadCastling);
  expect_error(start, "e3e4", SanError::kEmptyOrigin);
  expect_error(start, "e8=K", SanError::kBadPromotion);

  Board promo = board_at(kPromotionFen);
  expect_error(promo, "e8", SanError::kBadPromotion);
  expect_error(promo, "Kd2=Q", SanError::kBadPromotion);
  Board pawn = board_at("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
  expect_error(pawn, "e4=Q", SanError::kBadPromotion);

  // Into check, and castling through check or out of check.
  Board check = board_at("4k3/8/8/8/8/8/3r4/4K2R w K - 0 1");
  expect_error(check, "Ke2", SanError::kIllegal);
  expect_error(board_at("4k3/8/8/8/8/8/5r2/4K2R w K - 0 1"), "O-O", SanError::kBadCastling);
  expect_error(board_at("4k3/8/8/8/8/8/4r3/4K2R w K - 0 1"), "O-O", SanError::kBadCastling);
  for (int e = int(SanError::kSyntax); e <= int(SanError::kBadCastling); ++e)
    EXPECT_NE(san_error_message(SanError(e)), san_error_message(SanError::kNone));
}

TEST(SanParse, NullMove) {
  Board start;
  expect_move(start, "--", Move::null());
  expect_move(start, "Z0", Move::null());
  expect_error(board_at("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1"), "--", SanError::kIllegal);
}

void expect_san(const char* fen, Move m, const char* want) {
  Board b = board_at(fen);
  ASSERT_TRUE(b.is_legal(m)) << fen << " " << move_to_uci(m);
  EXPECT_EQ(move_to_san(b, m), want) << fen;
}

TEST(SanPrint, Notation) {
  expect_san(kStartFen.data(), Move(kE2, kE4), "e4");
  expect_san(kStartFen.data(), Move(kG1, kF3), "Nf3");
  expect_san(kCastlingFen, Move(kE1, kH1, Move::kCastling), "O-O");
  expect_san(kCastlingFen, Move(kE1, kA1, Move::kCastling), "O-O-O");
  expect_san(kEnPassantFen, Move(kE5, kF6, Move::kEnPassant), "exf6");
  expect_san(kPromotionFen, Move(kE7, kE8, Move::kPromotion, kQueen), "e8=Q+");
  expect_san(kPromotionFen, Move(kE7, kD8, Move::kPromotion, kKnight), "exd8=N");
  expect_san("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", Move(kE4, kD5), "exd5");
  expect_san("4k3/8/8/R7/8/5N2/8/RN2K3 w - - 0 1", Move(kB1, kD2), "Nbd2");
  expect_san("4k3/8/8/R7/8/5N2/8/RN2K3 w - - 0 1", Move(kA1, kA3), "R1a3");
  expect_san("4k3/8/8/R7/8/5N2/8/RN2K3 w - - 0 1", Move(kA1, kA2), "R1a2");
  expect_san("4k3/4r3/8/8/8/5N2/4N3/4K3 w - - 0 1", Move(kF3, kD4), "Nd4");
  // Three queens reach e1; the one on h4 shares its file with h1 and its rank with e4.
  expect_san("1k6/8/8/8/4Q2Q/8/8/K6Q w - - 0 1", Move(kH4, kE1), "Qh4e1");
  expect_san("1k6/8/8/8/4Q2Q/8/8/K6Q w - - 0 1", Move(kE4, kE1), "Qee1");
  expect_san("1k6/8/8/8/4Q2Q/8/8/K6Q w - - 0 1", Move(kH1, kE1), "Q1e1");
  // Checks and mates.
  expect_san("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2", Move(kD8, kH4), "Qh4#");
  expect_san("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", Move(kE1, kA1, Move::kCastling), "O-O-O");
  expect_san("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", Move(kE1, kA1, Move::kCastling), "O-O-O+");
  expect_san("8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", Move(kC4, kD3, Move::kEnPassant), "cxd3+");
  EXPECT_EQ(move_to_san(Board(), Move::null()), "--");
}

// Every legal move of a few positions and their children prints and parses back to itself.
TEST(SanPrint, RoundTripAllLegalMoves) {
  const char* fens[] = {kStartFen.data(),
                        kCastlingFen,
                        kEnPassantFen,
                        kPromotionFen,
                        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
                        "1k6/8/8/8/4Q2Q/8/8/K6Q w - - 0 1"};
  for (const char* fen : fens) {
    Board b = board_at(fen);
    MoveList list;
    generate_legal(b, list);
    for (Move m : list) {
      const std::string san = move_to_san(b, m);
      SanResult r = san_to_move(b, san);
      EXPECT_TRUE(r.ok()) << fen << " " << san << ": " << san_error_message(r.error);
      EXPECT_EQ(r.move, m) << fen << " " << san;
    }
  }
}

// Random text: any error is fine, but an accepted move must be legal and print back.
TEST(SanParse, ArbitraryTextIsSafe) {
  const Board boards[] = {Board(), board_at(kCastlingFen), board_at(kEnPassantFen), board_at(kPromotionFen)};
  const std::string alphabet = "abcdefgh12345678KQRBNPxX=+#!?-:O0oZe.pq ";
  std::mt19937 rng(99);
  int accepted = 0;
  for (int i = 0; i < 300000; ++i) {
    std::string s;
    const int len = int(rng() % 9);
    for (int k = 0; k < len; ++k) s += rng() % 16 ? alphabet[rng() % alphabet.size()] : char(rng() % 256);
    const Board& b = boards[rng() % 4];
    SanResult r = san_to_move(b, s);
    if (!r.ok()) {
      ASSERT_EQ(r.move, Move::none()) << s;
      continue;
    }
    ++accepted;
    if (r.move == Move::null()) continue;
    ASSERT_TRUE(b.is_legal(r.move)) << b.fen() << " " << s;
    ASSERT_EQ(san_to_move(b, move_to_san(b, r.move)).move, r.move) << b.fen() << " " << s;
  }
  EXPECT_GT(accepted, 100);
}

}  // namespace
}  // namespace bookforge::chess
