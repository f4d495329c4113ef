// Reading books nobody here wrote: every book in ../shared/data/polyglot, and the facts
// python-chess's own tests assert about two of them (polyglot/python-chess/EXPECTED_FACTS.txt).
#include <algorithm>

#include "book/polyglot/probe.h"
#include "book/polyglot/reader.h"
#include "chess/san.h"
#include "support/test_support.h"

namespace bookforge::book {
namespace {

chess::Board board_from(const std::string& fen) {
  auto b = chess::Board::from_fen(fen);
  EXPECT_TRUE(b.ok()) << fen;
  return b.ok() ? *b : chess::Board();
}

std::vector<std::string> uci_moves(const PolyglotBook& book, const chess::Board& board) {
  std::vector<std::string> moves;
  for (const ProbedMove& m : probe_book(book, board)) {
    EXPECT_NE(m.move, chess::Move::none()) << polyglot_move_text(m.entry.move);
    moves.push_back(polyglot_move_text(m.entry.move));
  }
  return moves;
}

TEST(RealBooks, EveryBookReadsAndEveryKeyIsFound) {
  BOOKFORGE_SHARED_OR_SKIP(root, "polyglot");
  int books = 0;
  for (const auto& f : std::filesystem::recursive_directory_iterator(root)) {
    if (f.path().extension() != ".bin") continue;
    ++books;
    auto book = PolyglotBook::open(f.path().string());
    ASSERT_TRUE(book.ok()) << book.error().message;
    EXPECT_EQ(book->file_size(), std::filesystem::file_size(f.path()));
    for (size_t i = 0; i < book->size(); i += 1 + book->size() / 500) {
      auto [first, last] = book->range(book->key_at(i));
      EXPECT_LE(first, i);
      EXPECT_GT(last, i);
    }
  }
  EXPECT_EQ(books, 36);
}

TEST(RealBooks, PerformanceBinFacts) {
  BOOKFORGE_SHARED_OR_SKIP(path, "polyglot/python-chess/performance.bin");
  auto book = PolyglotBook::open(path.string());
  ASSERT_TRUE(book.ok());
  EXPECT_EQ(book->file_size(), 1487264u);
  EXPECT_EQ(book->size(), 92954u);

  // The start position: e2e4, d2d4, c2c4 in file order, each of weight 1, with these learn values.
  chess::Board start;
  std::vector<PolyglotEntry> root = book->find(start.key());
  ASSERT_EQ(root.size(), 3u);
  EXPECT_EQ(uci_moves(*book, start), (std::vector<std::string>{"e2e4", "d2d4", "c2c4"}));
  EXPECT_EQ(root[0].learn, 486544384u);
  EXPECT_EQ(root[1].learn, 5120u);
  EXPECT_EQ(root[2].learn, 3825144832u);
  for (const PolyglotEntry& e : root) EXPECT_EQ(e.weight, 1);
  // Heaviest first, ties to the first in file order: e2e4; the next one is d2d4.
  EXPECT_EQ(chess::move_to_uci(pick_move(probe_book(*book, start), 0, true)->move), "e2e4");
  std::vector<ProbedMove> without_e4 = probe_book(*book, start);
  without_e4.erase(without_e4.begin());
  EXPECT_EQ(chess::move_to_uci(pick_move(without_e4, 0, true)->move), "d2d4");

  chess::Board after_e4 = start;
  chess::UndoInfo undo;
  after_e4.make_move(chess::uci_to_move(after_e4, "e2e4"), undo);
  EXPECT_EQ(uci_moves(*book, after_e4).front(), "e7e5");

  // Following the heaviest entry from the start until the book runs out.
  chess::Board board;
  for (int plies = 0; plies < 200; ++plies) {
    auto best = pick_move(probe_book(*book, board), 0, true);
    if (!best) break;
    board.make_move(best->move, undo);
  }
  // (The core writes the en-passant square after every double step; python-chess only when a
  // capture is possible, so compare the position itself: placement, side, castling, key.)
  const std::string expected = "r2q1rk1/4bppp/p2p1n2/np5b/3BP1P1/5N1P/PPB2P2/RN1QR1K1 b - - 0 15";
  EXPECT_EQ(board.fen().substr(0, board.fen().find(" b ") + 4), expected.substr(0, expected.find(" b ") + 4));
  EXPECT_EQ(board.key(), board_from(expected).key());
  EXPECT_EQ(board.fullmove_number(), 15);

  // Castling stored as king takes rook.
  chess::Board castles = board_from("r1bqr1k1/pp1nbppp/2p2n2/3p2B1/3P4/2NBP3/PPQ1NPPP/R3K2R w KQ - 5 10");
  std::vector<std::string> sans;
  for (const ProbedMove& m : probe_book(*book, castles)) sans.push_back(chess::move_to_san(castles, m.move));
  std::sort(sans.begin(), sans.end());
  EXPECT_EQ(sans, (std::vector<std::string>{"O-O", "O-O-O", "h3"}));
  chess::Board queenside =
      board_from("r3k1nr/1pp1q1pp/p1pb1p2/4p3/3PP1b1/2P1BN2/PP1N1PPP/R2Q1RK1 b kq - 4 9");
  std::vector<ProbedMove> moves = probe_book(*book, queenside);
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(polyglot_move_text(moves[0].entry.move), "e8a8");
  EXPECT_EQ(chess::move_to_san(queenside, moves[0].move), "O-O-O");

  // e1a1 is a rook move here, not castling: the king is not on e1.
  chess::Board rook = board_from("1r1qr1k1/1b2bp1n/p2p2pB/1pnPp2p/P1p1P3/R1P2NNP/1PBQ1PP1/4R1K1 w - - 0 1");
  moves = probe_book(*book, rook);
  ASSERT_FALSE(moves.empty());
  EXPECT_EQ(polyglot_move_text(moves[0].entry.move), "e1a1");
  EXPECT_NE(moves[0].move.kind(), chess::Move::kCastling);
  EXPECT_EQ(chess::move_to_san(rook, moves[0].move)[0], 'R');

  // No start move weighs 2 or more; the last entry's key is found (the search's upper edge).
  for (const ProbedMove& m : probe_book(*book, start)) EXPECT_LT(m.entry.weight, 2);
  uint64_t last_key = book->key_at(book->size() - 1);
  auto [first, last] = book->range(last_key);
  EXPECT_EQ(last, book->size());
  EXPECT_LT(first, last);
}

TEST(RealBooks, LaskerTrapUnderpromotion) {
  BOOKFORGE_SHARED_OR_SKIP(path, "polyglot/python-chess/lasker-trap.bin");
  auto book = PolyglotBook::open(path.string());
  ASSERT_TRUE(book.ok());
  EXPECT_EQ(book->file_size(), 112u);
  EXPECT_EQ(book->size(), 7u);
  chess::Board board = board_from("rnbqk1nr/ppp2ppp/8/4P3/1BP5/8/PP2KpPP/RN1Q1BNR b kq - 1 7");
  std::vector<ProbedMove> moves = probe_book(*book, board);
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ((moves[0].entry.move >> 12) & 7, 1) << "promotion field 1: a knight";
  EXPECT_EQ(chess::move_to_san(board, moves[0].move), "fxg1=N+");
}

}  // namespace
}  // namespace bookforge::book
