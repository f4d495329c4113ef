// Polyglot keys: the published test vectors, and incremental keys equal to from-scratch keys.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "chess/san.h"
#include "chess/zobrist.h"
#include "support/test_support.h"
#include "tree_walk.h"

namespace bookforge::chess {
namespace {

std::string hex_key(uint64_t key) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(key));
  return buf;
}

// Plays UCI moves from the start position; fails the test on a move that is not legal.
Board play_uci(const std::string& moves) {
  Board board;
  std::istringstream in(moves);
  std::string text;
  while (in >> text) {
    Move m = uci_to_move(board, text);
    EXPECT_NE(m, Move::none()) << text;
    if (m == Move::none()) break;
    UndoInfo undo;
    board.make_move(m, undo);
  }
  return board;
}

struct KeyVector {
  const char* moves;
  const char* fen;
  const char* key;
};

// The test data of the Polyglot book format description.
constexpr KeyVector kPublishedVectors[] = {
    {"", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "463b96181691fc9c"},
    {"e2e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "823c9b50fd114196"},
    {"e2e4 d7d5", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", "0756b94461c50fb0"},
    {"e2e4 d7d5 e4e5", "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", "662fafb965db29d4"},
    {"e2e4 d7d5 e4e5 f7f5", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
     "22a48b5a8e47ff78"},
    {"e2e4 d7d5 e4e5 f7f5 e1e2", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3",
     "652a607ca3f242c1"},
    {"e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4",
     "00fdd303c946bdd9"},
    {"a2a4 b7b5 h2h4 b5b4 c2c4", "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
     "3c8123ea7b067637"},
    {"a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4",
     "5c3f9b829b279560"},
};

TEST(Zobrist, TableMatchesPublishedEntries) {
  // First and last entries of the Random64 table, and the turn key, as printed in the spec.
  EXPECT_EQ(zobrist::kRandom64[0], 0x9D39247E33776D41ULL);
  EXPECT_EQ(zobrist::kRandom64[780], 0xF8D626AAAF278509ULL);
  EXPECT_EQ(zobrist::kRandom64[zobrist::kCastleOffset], 0x31D71DCE64B2C310ULL);
  EXPECT_EQ(zobrist::kRandom64[zobrist::kEnPassantOffset], 0x70CC73D90BC26E24ULL);
}

// make_move reads the rearranged tables; they must hold exactly the Random64 entries.
TEST(Zobrist, RearrangedTablesMatchRandom64) {
  for (Color c : {kWhite, kBlack})
    for (int pt = kPawn; pt <= kKing; ++pt)
      for (int s = 0; s < 64; ++s) {
        const Piece p = make_piece(c, PieceType(pt));
        ASSERT_EQ(zobrist::piece_key(p, Square(s)), zobrist::kRandom64[64 * (2 * pt + (c == kWhite)) + s]);
      }
  // The empty square's row is zero: make_move xors it in for a move that captures nothing.
  for (int s = 0; s < 64; ++s) ASSERT_EQ(zobrist::piece_key(kNoPiece, Square(s)), 0u);
  EXPECT_EQ(zobrist::castling_key(kNoCastling), 0u);
  EXPECT_EQ(zobrist::castling_key(kWhiteQueenSide), zobrist::kRandom64[zobrist::kCastleOffset + 1]);
  EXPECT_EQ(zobrist::castling_key(kWhiteKingSide | kBlackQueenSide),
            zobrist::kRandom64[zobrist::kCastleOffset] ^ zobrist::kRandom64[zobrist::kCastleOffset + 3]);
  EXPECT_EQ(zobrist::castling_key(kAllCastling), zobrist::kRandom64[768] ^ zobrist::kRandom64[769] ^
                                                     zobrist::kRandom64[770] ^ zobrist::kRandom64[771]);
}

TEST(Zobrist, EmbeddedPublishedVectors) {
  for (const KeyVector& v : kPublishedVectors) {
    SCOPED_TRACE(v.moves);
    Board played = play_uci(v.moves);
    EXPECT_EQ(hex_key(played.key()), v.key);
    EXPECT_EQ(hex_key(polyglot_key_from_scratch(played)), v.key);
    auto parsed = Board::from_fen(v.fen);
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    EXPECT_EQ(hex_key(parsed->key()), v.key);
  }
}

TEST(Zobrist, SharedVectorFile) {
  BOOKFORGE_SHARED_OR_SKIP(path, "polyglot/spec/zobrist_test_vectors.tsv");
  std::ifstream in(path);
  std::string line;
  int checked = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    size_t t1 = line.find('\t'), t2 = line.find('\t', t1 + 1);
    ASSERT_NE(t2, std::string::npos) << line;
    const std::string moves = line.substr(0, t1), fen = line.substr(t1 + 1, t2 - t1 - 1),
                      key = line.substr(t2 + 1);
    SCOPED_TRACE(line);
    EXPECT_EQ(hex_key(play_uci(moves).key()), key);
    auto parsed = Board::from_fen(fen);
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    EXPECT_EQ(hex_key(parsed->key()), key);
    ++checked;
  }
  EXPECT_EQ(checked, 9);
}

// The en-passant file counts only when a pawn of the side to move stands beside the pawn
// that double-stepped, even if that pawn is pinned.
TEST(Zobrist, EnPassantFileNeedsAdjacentPawnOnly) {
  auto pinned = Board::from_fen("4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 1");  // exd6 is illegal (rank pin)
  auto plain = Board::from_fen("4k3/8/8/K2pP2r/8/8/8/8 w - - 0 1");
  ASSERT_TRUE(pinned.ok() && plain.ok());
  EXPECT_EQ(pinned->key(), plain->key() ^ zobrist::en_passant_key(3));

  auto lone = Board::from_fen("4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1");
  auto lone_plain = Board::from_fen("4k3/8/8/3p4/8/8/8/4K3 w - - 0 1");
  ASSERT_TRUE(lone.ok() && lone_plain.ok());
  EXPECT_EQ(lone->key(), lone_plain->key());
}

TEST(Zobrist, IncrementalKeyEqualsScratchAtEveryNode) {
  for (const char* fen : test::kWalkFens) {
    SCOPED_TRACE(fen);
    Board board = *Board::from_fen(fen);
    const int depth = 3;
    long nodes = 0, bad = 0;
    test::walk_tree(board, depth, [&](const Board& b, Move) {
      ++nodes;
      if (b.key() != polyglot_key_from_scratch(b) || !b.is_ok()) ++bad;
    });
    EXPECT_GT(nodes, 0);
    EXPECT_EQ(bad, 0) << "of " << nodes << " nodes";
  }
}

TEST(Zobrist, UnmakeRestoresFenAndKey) {
  for (const char* fen : test::kWalkFens) {
    SCOPED_TRACE(fen);
    Board board = *Board::from_fen(fen);
    long bad = 0;
    // At every node, every move is made and unmade once more and compared with the node.
    test::walk_tree(board, 2, [&](Board& b, Move) {
      const std::string before = b.fen();
      const uint64_t key = b.key();
      const Bitboard checkers = b.checkers();
      MoveList list;
      generate_legal(b, list);
      for (Move m : list) {
        UndoInfo undo;
        b.make_move(m, undo);
        b.unmake_move(m, undo);
        if (b.fen() != before || b.key() != key || b.checkers() != checkers || !b.is_ok()) ++bad;
      }
    });
    EXPECT_EQ(bad, 0);
  }
}

TEST(Zobrist, NullMoveFlipsTurnAndClearsEnPassant) {
  Board board = *Board::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
  const std::string fen = board.fen();
  const uint64_t key = board.key();
  UndoInfo undo;
  board.make_move(Move::null(), undo);
  EXPECT_EQ(board.side_to_move(), kBlack);
  EXPECT_EQ(board.ep_square(), kNoSquare);
  EXPECT_EQ(board.key(), polyglot_key_from_scratch(board));
  EXPECT_TRUE(board.is_ok());
  board.unmake_move(Move::null(), undo);
  EXPECT_EQ(board.fen(), fen);
  EXPECT_EQ(board.key(), key);
}

}  // namespace
}  // namespace bookforge::chess
