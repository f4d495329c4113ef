// Chess960: castling with the king and rooks on any files, X-FEN and Shredder-FEN, the
// notations of a castling move, and the Polyglot keys of Chess960 positions.
#include <string>

#include <gtest/gtest.h>

#include "chess/move_sequence.h"
#include "chess/movegen.h"
#include "chess/perft.h"
#include "chess/san.h"

namespace bookforge::chess {
namespace {

Board chess960(const char* fen) {
  auto board = Board::from_fen(fen, true);
  EXPECT_TRUE(board.ok()) << fen << ": " << board.error().message;
  return board.ok() ? *board : Board();
}

bool has_castling(const Board& board) {
  MoveList list;
  generate_legal(board, list);
  for (Move m : list)
    if (m.kind() == Move::kCastling) return true;
  return false;
}

TEST(Chess960, ShredderAndXFenNameTheSameRooks) {
  // Rooks b1 and g1 around the king on d1: K and Q are the outermost ones.
  const Board shredder = *Board::from_fen("nrnkbqrb/pppppppp/8/8/8/8/PPPPPPPP/NRNKBQRB w GBgb - 0 1");
  const Board xfen = chess960("nrnkbqrb/pppppppp/8/8/8/8/PPPPPPPP/NRNKBQRB w KQkq - 0 1");
  EXPECT_TRUE(shredder.chess960());
  EXPECT_EQ(shredder.castling_rights(), kAllCastling);
  EXPECT_EQ(shredder.castling_move(kWhiteKingSide), Move(kD1, kG1, Move::kCastling));
  EXPECT_EQ(shredder.castling_move(kBlackQueenSide), Move(kD8, kB8, Move::kCastling));
  EXPECT_EQ(shredder.key(), xfen.key());
  EXPECT_EQ(shredder.fen(), "nrnkbqrb/pppppppp/8/8/8/8/PPPPPPPP/NRNKBQRB w KQkq - 0 1");
  EXPECT_EQ(xfen.fen(), shredder.fen());
}

TEST(Chess960, XFenWritesAFileWhenAnotherRookStandsOutside) {
  // The castling rook is e1 with another rook on h1 beyond it: "K" would name h1.
  const Board board = *Board::from_fen("6k1/8/8/8/8/8/8/R1K1R2R w E - 0 1");
  EXPECT_EQ(board.castling_move(kWhiteKingSide), Move(kC1, kE1, Move::kCastling));
  EXPECT_EQ(board.fen(), "6k1/8/8/8/8/8/8/R1K1R2R w E - 0 1");
  EXPECT_EQ(Board::from_fen(board.fen(), true)->fen(), board.fen());
  // X-FEN's K names the outermost rook instead.
  EXPECT_EQ(chess960("6k1/8/8/8/8/8/8/R1K1R2R w K - 0 1").castling_move(kWhiteKingSide),
            Move(kC1, kH1, Move::kCastling));
}

TEST(Chess960, StandardFenStaysStandard) {
  const Board standard;
  EXPECT_FALSE(standard.chess960());
  EXPECT_EQ(standard.fen(), kStartFen);
  // The standard start position as position 518 of Chess960: same FEN, same key.
  const Board start518 = chess960(kStartFen.data());
  EXPECT_TRUE(start518.chess960());
  EXPECT_EQ(start518.fen(), kStartFen);
  EXPECT_EQ(start518.key(), standard.key());
  // File letters naming the corner rooks are standard chess.
  EXPECT_FALSE(Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1")->chess960());
  // Without the Chess960 flag, KQkq still needs the king on e1 and the rooks in the corners.
  EXPECT_EQ(Board::from_fen("nrnkbqrb/pppppppp/8/8/8/8/PPPPPPPP/NRNKBQRB w KQkq - 0 1")->castling_rights(),
            kNoCastling);
}

TEST(Chess960, KingAlreadyOnItsDestination) {
  // King g1, rook h1: castling h-side only moves the rook to f1.
  Board board = chess960("nqbnrbkr/pppppppp/8/8/8/6P1/PPPPPPBP/NQBNR1KR w KQkq - 0 1");
  const Move castle(kG1, kH1, Move::kCastling);
  ASSERT_TRUE(board.is_legal(castle));
  EXPECT_EQ(move_to_san(board, castle), "O-O");
  EXPECT_EQ(san_to_move(board, "O-O").move, castle);
  EXPECT_EQ(move_to_uci(castle, true), "g1h1");
  EXPECT_EQ(uci_to_move(board, "g1h1"), castle);
  EXPECT_EQ(uci_to_move(board, "g1f1"), Move(kG1, kF1));  // the king's step
  UndoInfo undo;
  const std::string before = board.fen();
  board.make_move(castle, undo);
  EXPECT_EQ(board.fen(), "nqbnrbkr/pppppppp/8/8/8/6P1/PPPPPPBP/NQBNRRK1 b kq - 1 1");
  EXPECT_TRUE(board.is_ok());
  board.unmake_move(castle, undo);
  EXPECT_EQ(board.fen(), before);
}

TEST(Chess960, KingTakesTheRookBesideIt) {
  // King f1, rook g1: the king goes to g1 and the rook to f1, their squares swapped.
  Board board = chess960("bnrbnkrq/pppppppp/8/8/8/8/PPPPPPPP/BNRBNKRQ w KQkq - 0 1");
  const Move castle(kF1, kG1, Move::kCastling);
  EXPECT_EQ(san_to_move(board, "O-O").move, castle);
  EXPECT_EQ(san_to_move(board, "Kf1g1").move, castle);
  EXPECT_EQ(uci_to_move(board, "f1g1"), castle);
  EXPECT_EQ(move_to_uci(castle), "f1g1");  // the king's destination happens to be the rook's square
  UndoInfo undo;
  board.make_move(castle, undo);
  EXPECT_EQ(board.fen(), "bnrbnkrq/pppppppp/8/8/8/8/PPPPPPPP/BNRBNRKQ b kq - 1 1");
}

TEST(Chess960, QueenSideNotations) {
  // King b1, rook a1: O-O-O takes the king to c1 and the rook to d1.
  const Board board = chess960("rk6/8/8/8/8/8/8/RK6 w Qq - 0 1");
  const Move castle(kB1, kA1, Move::kCastling);
  EXPECT_EQ(san_to_move(board, "O-O-O").move, castle);
  EXPECT_EQ(move_to_san(board, castle), "O-O-O");
  EXPECT_EQ(move_to_uci(castle, true), "b1a1");
  EXPECT_EQ(move_to_uci(castle, false), "b1c1");
  EXPECT_EQ(uci_to_move(board, "b1a1"), castle);
  // In Chess960, b1c1 is the king's step, not castling.
  EXPECT_EQ(uci_to_move(board, "b1c1"), Move(kB1, kC1));
  EXPECT_EQ(san_to_move(board, "Kc1").move, Move(kB1, kC1));
  EXPECT_EQ(san_to_move(board, "O-O").error, SanError::kBadCastling);
}

TEST(Chess960, StandardUciKeepsTheKingsDestination) {
  const Board board = *Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  EXPECT_EQ(uci_to_move(board, "e1g1"), Move(kE1, kH1, Move::kCastling));
  EXPECT_EQ(move_to_uci(Move(kE1, kH1, Move::kCastling)), "e1g1");
  EXPECT_EQ(move_to_uci(Move(kE1, kH1, Move::kCastling), true), "e1h1");
}

TEST(Chess960, RookShieldingTheKingsDestination) {
  // Queen a1, rook b1, king c1: castling a-side leaves the king on c1 and moves the rook to
  // d1, so the queen would see the king.
  const Board shielded = chess960("4k3/8/8/8/8/8/8/qRK5 w Q - 0 1");
  EXPECT_EQ(shielded.castling_rights(), kWhiteQueenSide);
  EXPECT_FALSE(shielded.is_legal(Move(kC1, kB1, Move::kCastling)));
  EXPECT_FALSE(has_castling(shielded));
  // The same with a knight on a1: nothing attacks c1, castling is legal.
  EXPECT_TRUE(has_castling(chess960("4k3/8/8/8/8/8/8/nRK5 w Q - 0 1")));
}

TEST(Chess960, SquaresTheKingCrosses) {
  // King b1 to g1 with the rook on h1: a bishop attacking e1 forbids castling; one attacking
  // only the rook's square does not.
  EXPECT_FALSE(has_castling(chess960("4k3/8/8/1b6/8/8/8/1K5R w K - 0 1")));
  EXPECT_TRUE(has_castling(chess960("4k3/8/8/3b4/8/8/8/1K5R w K - 0 1")));
  // A piece between the rook and its destination (f1) blocks it, even beyond the king's path.
  EXPECT_FALSE(has_castling(chess960("4k3/8/8/8/8/8/8/RN2K3 w Q - 0 1")));
  EXPECT_TRUE(has_castling(chess960("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")));
}

TEST(Chess960, RightsEndWithTheirRookOrKing) {
  Board board = chess960("rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1");
  // The c1 rook moves away (White loses its h-side right), then Black's king moves.
  ASSERT_TRUE(play_moves(board, "c2c3 b7b6 c1c2 b8b7").ok());
  EXPECT_EQ(board.castling_rights(), kWhiteQueenSide);
  EXPECT_EQ(board.fen(), "r1rnnqbb/pkpppppp/1p6/8/8/2P5/PPRPPPPP/RK1NNQBB w Q - 2 3");
  EXPECT_EQ(board.key(), polyglot_key_from_scratch(board));
}

TEST(Chess960, PerftOfTheStandardStartIsUnchanged) {
  Board board = chess960(kStartFen.data());
  EXPECT_EQ(perft(board, 4), 197281u);
}

// Facts taken from python-chess 1.11 (chess.Board(fen, chess960=True), moves in its
// king-takes-rook UCI, then chess.polyglot.zobrist_hash): its castling part of the key gives a
// side its "kingside" entry when it may castle with a rook on the h side of its king and its
// "queenside" entry with a rook on the a side, which is what our rights mask means. The
// full comparison against python-chess is tests/chess/chess960_keys_check.py.
TEST(Chess960, PolyglotKeysAgreeWithPythonChess) {
  struct Fact {
    const char* fen;
    const char* moves;
    uint64_t key;
  };
  const Fact facts[] = {
      {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", "", 0x3909bc29b6a9552eULL},
      {"nrnkbqrb/pppppppp/8/8/8/8/PPPPPPPP/NRNKBQRB w BGbg - 0 1", "", 0x727725583315cdc8ULL},
      {"R3rkrR/8/8/8/8/8/8/r3RKRr w EGeg - 0 1", "", 0xaebc12231f5439e2ULL},
      {"2rkr3/5PP1/8/5Q2/5q2/8/5pp1/2RKR3 w CEce - 0 1", "", 0xa570c9fbbcb4730aULL},
      {"4rrk1/pbbp2p1/1ppnp3/3n1pqp/3N1PQP/1PPNP3/PBBP2P1/4RRK1 w Ff -", "", 0x9559ff3293d3fff5ULL},
      {"r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1", "", 0x371a125b90dd4674ULL},
      {"r1k2r1q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K2R1Q w KQkq - 0 1", "", 0xafffdb90250508e2ULL},
      {"8/8/8/4B2b/6nN/8/5P2/2R1K2k w Q - 0 1", "", 0x71ca82248cccb319ULL},
      {"2r5/8/8/8/8/8/6PP/k2KR3 w K - 0 1", "", 0x03fc723c6dfe7ffcULL},
      {"4r3/3k4/8/8/8/8/6PP/qR1K1R2 w KQ - 0 1", "", 0xe3ecee5ecfcc0e4dULL},
      {"qbrnnkbr/pppppppp/8/8/8/8/PPPPPPPP/QBRNNKBR w CHch - 0 1",
       "b2b3 h7h6 h2h3 a7a5 g1h2 e8f6 f1h1 g8h7 e1f3", 0x5ca1f45422ce5819ULL},
      {"rbknqnbr/pppppppp/8/8/8/8/PPPPPPPP/RBKNQNBR w AHah - 0 1",
       "h2h4 h7h5 c2c3 f8h7 g2g3 a7a6 h1h2 h7f6 h2h1 b8a7 c3c4 d8c6 f1e3 c8a8 e3g2", 0x595f2f3b33752373ULL},
      {"bnrbnkrq/pppppppp/8/8/8/8/PPPPPPPP/BNRBNKRQ w CGcg - 0 1", "f1g1 f8g8 b1c3 a7a5 b2b4",
       0xd7dd80bbbb6dca6fULL},
      {"nqbnrbkr/pppppppp/8/8/8/8/PPPPPPPP/NQBNRBKR w EHeh - 0 1", "h2h4 h7h5 e2e4 d8e6 f1a6 b7b6 g1h1 e6c5",
       0xa0d2087046aa2b2dULL},
      {"nrnkbqrb/pppppppp/8/8/8/8/PPPPPPPP/NRNKBQRB w BGbg - 0 1",
       "h2h3 a7a6 c2c3 e7e5 h3h4 b7b6 d1c2 c8e7 e2e4 d8b8", 0xf15fbc621b83e839ULL},
      {"rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1",
       "f2f4 b7b6 g1d4 g7g6 g2g4 h8e5 h1g2 b6b5 f1g1 c7c5 g2c6 c8c7 d1e3 c7c8 e3f1 d8c6 e1g2 e5h8 c2c3 e8g7 "
       "f1g3 d7d5 b2b3 b8c7 g1e3 c7d8 b1c1 c6e5 g2e1 d8d7",
       0xc7b549553c731293ULL},
      {"bbrnnqkr/pppppppp/8/8/8/8/PPPPPPPP/BBRNNQKR w HChc - 0 1",
       "e1f3 b7b6 e2e4 c7c6 h2h3 g7g5 f3g5 b8e5 f1e1 a7a5 g1h1 e8c7", 0x10ba46e4b2625534ULL},
      {"rkbbqnnr/pppppppp/8/8/8/8/PPPPPPPP/RKBBQNNR w AHah - 0 1",
       "d2d4 d7d5 c2c3 b7b5 b2b4 c7c5 g1h3 c8f5 b1b2 g8f6 h3f4 d8a5 h2h3 b8a8 a2a3 f8d7 d1b3 h8g8 f4d3 c8b7 "
       "b3c4 c5d4",
       0xc8afc0b5c1e5e695ULL},
      {"nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w GBgb - 0 1",
       "h2h3 b7b6 c2c3 e7e6 h3h4 d7d5 a2a4 c8d7 f2f4 c7c5 f4f5 f8d6 a4a5 d6e5 e2e4 d8e7 d1h5 b8b7 c1b1 e5d6 "
       "f1b5",
       0xa6af74c579aa8a41ULL},
      {"qrkrbbnn/pppppppp/8/8/8/8/PPPPPPPP/QRKRBBNN w DBdb - 0 1",
       "g1h3 d7d5 c2c3 e7e5 h1g3 e5e4 g3h1 a7a6 b2b4 e8c6 g2g4 d8d7 e2e3 c8b8 h1g3 g7g6",
       0x477c12324e346551ULL},
  };
  for (const Fact& f : facts) {
    Board board = chess960(f.fen);
    ASSERT_TRUE(play_moves(board, f.moves).ok()) << f.fen << " " << f.moves;
    EXPECT_EQ(board.key(), f.key) << f.fen << " " << f.moves;
    EXPECT_EQ(board.key(), polyglot_key_from_scratch(board)) << f.fen << " " << f.moves;
    EXPECT_TRUE(board.is_ok());
  }
}

}  // namespace
}  // namespace bookforge::chess
