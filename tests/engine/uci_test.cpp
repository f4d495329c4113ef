// UCI conversations with the real `bookforge uci` binary through a pipe, as a GUI or a match
// runner would hold them.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <sstream>
#include <string>
#include <vector>

#include "book/polyglot/format.h"
#include "chess/polyglot_move.h"
#include "chess/san.h"
#include "support/test_support.h"

namespace bookforge::engine {
namespace {

using test::run_bookforge;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

// Index of the first line starting with `prefix` at or after `from`, or -1.
int find_line(const std::vector<std::string>& lines, const std::string& prefix, int from = 0) {
  for (int i = from; i < int(lines.size()); ++i)
    if (lines[size_t(i)].rfind(prefix, 0) == 0) return i;
  return -1;
}

// The move of the last "bestmove" line, checked to be legal in `board`.
chess::Move best_move(const std::vector<std::string>& lines, const chess::Board& board) {
  int i = -1;
  for (int k = 0; k < int(lines.size()); ++k)
    if (lines[size_t(k)].rfind("bestmove ", 0) == 0) i = k;
  if (i < 0) return chess::Move::none();
  std::istringstream s(lines[size_t(i)]);
  std::string word, move;
  s >> word >> move;
  return chess::uci_to_move(board, move);
}

chess::Board after(const std::vector<std::string>& uci_moves) {
  chess::Board b;
  for (const std::string& t : uci_moves) {
    chess::UndoInfo u;
    b.make_move(chess::uci_to_move(b, t), u);
  }
  return b;
}

TEST(UciProtocol, HandshakeAndOptions) {
  const auto r = run_bookforge({"uci"}, "uci\nisready\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = lines_of(r.out);
  ASSERT_GE(find_line(lines, "id name bookforge"), 0) << r.out;
  for (const char* option :
       {"Hash", "Threads", "MultiPV", "OwnBook", "BookFile", "BookBestMove", "BookMaxPly"})
    EXPECT_GE(find_line(lines, std::string("option name ") + option + " type"), 0) << option;
  const int uciok = find_line(lines, "uciok");
  ASSERT_GE(uciok, 0);
  EXPECT_GT(find_line(lines, "readyok"), uciok);
}

TEST(UciProtocol, PositionWithMovesThenGoDepth) {
  const auto r = run_bookforge(
      {"uci"}, "uci\nucinewgame\nisready\nposition startpos moves e2e4 e7e5 g1f3\ngo depth 6\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = lines_of(r.out);
  // At the end of its input the engine finishes a search with limits before it exits.
  EXPECT_GE(find_line(lines, "info depth 6 "), 0) << r.out;
  const chess::Move m = best_move(lines, after({"e2e4", "e7e5", "g1f3"}));
  EXPECT_TRUE(m.is_ok()) << r.out;
  // Info lines carry score, nodes and a principal variation.
  const int info = find_line(lines, "info depth 6 ");
  ASSERT_GE(info, 0);
  for (const char* field : {" score ", " nodes ", " nps ", " time ", " pv "})
    EXPECT_NE(lines[size_t(info)].find(field), std::string::npos) << field;
}

TEST(UciProtocol, GoInfiniteThenStop) {
  const auto r = run_bookforge({"uci"}, "position startpos moves d2d4\ngo infinite\nisready\nstop\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = lines_of(r.out);
  const int ready = find_line(lines, "readyok");
  const int best = find_line(lines, "bestmove ");
  ASSERT_GE(ready, 0) << r.out;
  ASSERT_GE(best, 0) << r.out;
  EXPECT_LT(ready, best);  // isready is answered while the search runs
  EXPECT_TRUE(best_move(lines, after({"d2d4"})).is_ok()) << r.out;
  EXPECT_EQ(find_line(lines, "bestmove ", best + 1), -1);  // exactly one best move
}

TEST(UciProtocol, FenPositionAndMate) {
  const auto r = run_bookforge({"uci"}, "position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\ngo depth 4\n");
  const auto lines = lines_of(r.out);
  EXPECT_GE(find_line(lines, "bestmove d1d8"), 0) << r.out;
  bool mate_reported = false;
  for (const auto& l : lines) mate_reported |= l.find("score mate 1 ") != std::string::npos;
  EXPECT_TRUE(mate_reported) << r.out;
}

// With UCI_Chess960 castling is "king takes rook" in both directions; without it the standard
// start keeps e1g1.
TEST(UciProtocol, Chess960CastlingIsKingTakesRook) {
  // King g1, rook h1: castling h-side only moves the rook, and g1h1 is its only name.
  const std::string fen = "nqbnrbkr/pppppppp/8/8/8/6P1/PPPPPPBP/NQBNR1KR w HEhe - 0 1";
  auto r = run_bookforge({"uci"}, "uci\nsetoption name UCI_Chess960 value true\nposition fen " + fen +
                                      "\ngo depth 3 searchmoves g1h1\n");
  auto lines = lines_of(r.out);
  EXPECT_GE(find_line(lines, "option name UCI_Chess960 type check default false"), 0) << r.out;
  EXPECT_GE(find_line(lines, "bestmove g1h1"), 0) << r.out;
  const int info = find_line(lines, "info depth 3 ");
  ASSERT_GE(info, 0) << r.out;
  EXPECT_NE(lines[size_t(info)].find(" pv g1h1"), std::string::npos) << lines[size_t(info)];

  // Castling inside "position ... moves", then a search from the position after it.
  r = run_bookforge({"uci"},
                    "setoption name UCI_Chess960 value true\nposition fen "
                    "bnrbnkrq/pppppppp/8/8/8/8/PPPPPPPP/BNRBNKRQ w GCgc - 0 1 moves f1g1 f8g8\ngo depth 3\n");
  lines = lines_of(r.out);
  EXPECT_EQ(find_line(lines, "info string illegal move"), -1) << r.out;
  chess::Board board = *chess::Board::from_fen("bnrbnrkq/pppppppp/8/8/8/8/PPPPPPPP/BNRBNRKQ w - - 2 2", true);
  EXPECT_TRUE(best_move(lines, board).is_ok()) << r.out;

  // The standard start: e1h1 under UCI_Chess960, e1g1 without it.
  const std::string italian = "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6\n";
  r = run_bookforge({"uci"},
                    "setoption name UCI_Chess960 value true\n" + italian + "go depth 2 searchmoves e1h1\n");
  EXPECT_GE(find_line(lines_of(r.out), "bestmove e1h1"), 0) << r.out;
  r = run_bookforge({"uci"}, italian + "go depth 2 searchmoves e1g1\n");
  EXPECT_GE(find_line(lines_of(r.out), "bestmove e1g1"), 0) << r.out;
}

TEST(UciProtocol, MultiPvAndSearchMoves) {
  auto r = run_bookforge({"uci"}, "setoption name MultiPV value 3\nposition startpos\ngo depth 5\n");
  auto lines = lines_of(r.out);
  EXPECT_GE(find_line(lines, "info depth 5 seldepth"), 0);
  bool third = false;
  for (const auto& l : lines)
    third |= l.rfind("info depth 5 ", 0) == 0 && l.find(" multipv 3 ") != std::string::npos;
  EXPECT_TRUE(third) << r.out;

  r = run_bookforge({"uci"}, "position startpos\ngo depth 5 searchmoves a2a3 h2h3\n");
  lines = lines_of(r.out);
  const chess::Move m = best_move(lines, chess::Board());
  EXPECT_TRUE(chess::move_to_uci(m) == "a2a3" || chess::move_to_uci(m) == "h2h3") << r.out;
}

TEST(UciProtocol, ClockAndPonder) {
  // A clock search must end by itself.
  auto r = run_bookforge({"uci"}, "position startpos\ngo wtime 300 btime 300 winc 0 binc 0\nisready\n");
  EXPECT_TRUE(best_move(lines_of(r.out), chess::Board()).is_ok()) << r.out;
  // A ponder search waits for ponderhit, then plays on the clock.
  r = run_bookforge({"uci"}, "position startpos\ngo ponder wtime 500 btime 500\nponderhit\n");
  EXPECT_TRUE(best_move(lines_of(r.out), chess::Board()).is_ok()) << r.out;
  // movetime
  r = run_bookforge({"uci"}, "position startpos moves e2e4\ngo movetime 100\n");
  EXPECT_TRUE(best_move(lines_of(r.out), after({"e2e4"})).is_ok()) << r.out;
}

TEST(UciProtocol, BadInputIsReportedAndIgnored) {
  const auto r =
      run_bookforge({"uci"},
                    "position fen not/a/fen w - - 0 1\nposition startpos moves e2e4 e2e4\nfrobnicate\n"
                    "setoption name Hash value lots\ngo depth 3\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = lines_of(r.out);
  EXPECT_GE(find_line(lines, "info string bad fen"), 0) << r.out;
  EXPECT_GE(find_line(lines, "info string illegal move e2e4"), 0) << r.out;
  EXPECT_GE(find_line(lines, "info string unknown command: frobnicate"), 0) << r.out;
  EXPECT_GE(find_line(lines, "info string Hash must be"), 0) << r.out;
  // The moves before the illegal one were played: Black is to move after 1.e4.
  EXPECT_TRUE(best_move(lines, after({"e2e4"})).is_ok()) << r.out;
}

TEST(UciProtocol, CheckmatedRootAnswersNone) {
  const auto r = run_bookforge({"uci"}, "position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\ngo depth 3\n");
  EXPECT_GE(find_line(lines_of(r.out), "bestmove (none)"), 0) << r.out;
}

// A one-position Polyglot book that recommends an odd move, so that a book move cannot be
// mistaken for a searched one. Weights descend from 10 unless given.
void write_book(const std::filesystem::path& path, const chess::Board& board,
                const std::vector<std::string>& moves, std::vector<uint16_t> weights = {}) {
  std::vector<book::PolyglotEntry> entries;
  for (size_t i = 0; i < moves.size(); ++i)
    entries.push_back({board.key(), chess::move_to_polyglot(chess::uci_to_move(board, moves[i])),
                       i < weights.size() ? weights[i] : uint16_t(10 - i), 0});
  const std::vector<unsigned char> bytes = test::polyglot_bytes(entries);
  test::write_file(path, std::string(bytes.begin(), bytes.end()));
}

TEST(UciProtocol, PlaysFromTheBookWhileInIt) {
  test::TempDir dir;
  const auto book = dir / "tiny.bin";
  write_book(book, chess::Board(), {"g1h3"});
  const std::string setup =
      "setoption name OwnBook value true\nsetoption name BookFile value " + book.string() + "\n";

  auto r = run_bookforge({"uci"}, setup + "position startpos\ngo wtime 1000 btime 1000\n");
  auto lines = lines_of(r.out);
  EXPECT_GE(find_line(lines, "info string book move"), 0) << r.out;
  EXPECT_GE(find_line(lines, "bestmove g1h3"), 0) << r.out;

  // Out of the book: a search.
  r = run_bookforge({"uci"}, setup + "position startpos moves e2e4\ngo depth 4\n");
  lines = lines_of(r.out);
  EXPECT_EQ(find_line(lines, "info string book move"), -1) << r.out;
  EXPECT_TRUE(best_move(lines, after({"e2e4"})).is_ok());

  // BookMaxPly 0 and OwnBook false both turn the book off.
  r = run_bookforge({"uci"}, setup + "setoption name BookMaxPly value 0\nposition startpos\ngo depth 3\n");
  EXPECT_EQ(find_line(lines_of(r.out), "info string book move"), -1) << r.out;
  r = run_bookforge({"uci"}, setup + "setoption name OwnBook value false\nposition startpos\ngo depth 3\n");
  EXPECT_EQ(find_line(lines_of(r.out), "info string book move"), -1) << r.out;

  // --book on the command line does the same as the two options.
  r = run_bookforge({"uci", "--book", book.string()}, "position startpos\ngo depth 3\n");
  EXPECT_GE(find_line(lines_of(r.out), "bestmove g1h3"), 0) << r.out;
}

TEST(UciProtocol, BookBestMovePicksTheHeaviest) {
  test::TempDir dir;
  const auto book = dir / "two.bin";
  write_book(book, chess::Board(), {"b1a3", "g1h3"});  // b1a3 has the larger weight
  const auto r = run_bookforge({"uci"},
                               "setoption name OwnBook value true\nsetoption name BookBestMove value true\n"
                               "setoption name BookFile value " +
                                   book.string() + "\nposition startpos\ngo depth 3\n");
  EXPECT_GE(find_line(lines_of(r.out), "bestmove b1a3"), 0) << r.out;
}

TEST(UciProtocol, UnreadableBookIsReported) {
  test::TempDir dir;
  const auto bad = dir / "bad.bin";
  test::write_file(bad, "not a book");  // 10 bytes: not a multiple of 16
  const auto r = run_bookforge({"uci"}, "setoption name OwnBook value true\nsetoption name BookFile value " +
                                            bad.string() + "\nposition startpos\ngo depth 2\n");
  const auto lines = lines_of(r.out);
  EXPECT_GE(find_line(lines, "info string cannot use book"), 0) << r.out;
  EXPECT_TRUE(best_move(lines, chess::Board()).is_ok()) << r.out;
}

TEST(UciProtocol, ZeroOrNegativeLimitsStillEndTheSearch) {
  // 0 means "no limit" inside the engine; a limit the client gives as 0, negative or without a
  // number is the smallest limit instead, so each search ends by itself and the engine exits at
  // the end of its input.
  for (const char* go :
       {"go depth 0", "go depth -3", "go movetime 0", "go movetime -5", "go nodes 0", "go nodes -1",
        "go wtime 0 btime 0", "go wtime -10 btime -10 winc -5 binc -5", "go depth"}) {
    const auto r = run_bookforge({"uci"}, std::string("position startpos moves e2e4\n") + go + "\n");
    EXPECT_EQ(r.exit_code, 0) << go;
    EXPECT_TRUE(best_move(lines_of(r.out), after({"e2e4"})).is_ok()) << go << "\n" << r.out;
  }
  // A "go" with no limit at all runs until "stop", or until the end of the input.
  const auto r = run_bookforge({"uci"}, "position startpos\ngo\n");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(best_move(lines_of(r.out), chess::Board()).is_ok()) << r.out;
}

TEST(UciProtocol, QuitDuringASearchEndsTheEngine) {
  const auto r = run_bookforge({"uci"}, "position startpos\ngo infinite\nisready\nquit\nisready\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto lines = lines_of(r.out);
  EXPECT_GE(find_line(lines, "readyok"), 0) << r.out;
  // Nothing is read after quit: one readyok only.
  EXPECT_EQ(find_line(lines, "readyok", find_line(lines, "readyok") + 1), -1) << r.out;
}

TEST(UciProtocol, BookFlagSetsTheAdvertisedDefaults) {
  test::TempDir dir;
  const auto book = dir / "tiny.bin";
  write_book(book, chess::Board(), {"g1h3"});
  auto r = run_bookforge({"uci", "--book", book.string()}, "uci\nquit\n");
  auto lines = lines_of(r.out);
  EXPECT_GE(find_line(lines, "option name OwnBook type check default true"), 0) << r.out;
  EXPECT_GE(find_line(lines, "option name BookFile type string default " + book.string()), 0) << r.out;
  // Without --book: no book by default.
  r = run_bookforge({"uci"}, "uci\nquit\n");
  lines = lines_of(r.out);
  EXPECT_GE(find_line(lines, "option name OwnBook type check default false"), 0) << r.out;
  EXPECT_GE(find_line(lines, "option name BookFile type string default <empty>"), 0) << r.out;
  // A client that turns OwnBook off gets searched moves, even with --book.
  r = run_bookforge({"uci", "--book", book.string()},
                    "uci\nsetoption name OwnBook value false\nposition startpos\ngo depth 3\n");
  EXPECT_EQ(find_line(lines_of(r.out), "info string book move"), -1) << r.out;
}

TEST(UciProtocol, BookThatIsNotARegularFileIsRefused) {
  test::TempDir dir;
  const auto fifo = dir / "fifo.bin";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // On the command line: bad input, exit 2, before the protocol starts (no waiting for a writer).
  auto r = run_bookforge({"uci", "--book", fifo.string()}, "uci\nquit\n");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.err.find(fifo.string() + ": is a FIFO"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("uciok"), std::string::npos) << r.out;
  // As BookFile: reported, and the engine goes on answering (quit included).
  r = run_bookforge({"uci"}, "setoption name OwnBook value true\nsetoption name BookFile value " +
                                 fifo.string() +
                                 "\nsetoption name BookFile value /dev/zero\nisready\nquit\n");
  EXPECT_EQ(r.exit_code, 0);
  const auto lines = lines_of(r.out);
  EXPECT_GE(find_line(lines, "info string cannot use book: " + fifo.string() + ": is a FIFO"), 0) << r.out;
  EXPECT_GE(find_line(lines, "info string cannot use book: /dev/zero: is a device"), 0) << r.out;
  EXPECT_GE(find_line(lines, "readyok"), 0) << r.out;
}

TEST(UciProtocol, ZeroWeightBookEntriesAreNeverPlayed) {
  test::TempDir dir;
  // Every entry weighs 0 ("avoid"): the position is out of the book, with BookBestMove or not.
  const auto avoided = dir / "avoid.bin";
  write_book(avoided, chess::Board(), {"g1h3", "b1a3"}, {0, 0});
  for (const char* best : {"false", "true"}) {
    const auto r =
        run_bookforge({"uci", "--book", avoided.string()}, std::string("setoption name BookBestMove value ") +
                                                               best + "\nposition startpos\ngo depth 3\n");
    const auto lines = lines_of(r.out);
    EXPECT_EQ(find_line(lines, "info string book move"), -1) << r.out;
    const chess::Move m = best_move(lines, chess::Board());
    EXPECT_TRUE(m.is_ok()) << r.out;
    EXPECT_NE(chess::move_to_uci(m), "g1h3");
    EXPECT_NE(chess::move_to_uci(m), "b1a3");
  }
  // Beside a weighted entry, the weight-0 one is never the pick.
  const auto mixed = dir / "mixed.bin";
  write_book(mixed, chess::Board(), {"b1a3", "g1h3"}, {1, 0});
  for (int i = 0; i < 5; ++i) {
    const auto r = run_bookforge({"uci", "--book", mixed.string()}, "position startpos\ngo depth 3\n");
    EXPECT_GE(find_line(lines_of(r.out), "bestmove b1a3"), 0) << r.out;
  }
}

}  // namespace
}  // namespace bookforge::engine
