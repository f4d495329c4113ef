#include "engine/search.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "chess/movegen.h"
#include "chess/san.h"
#include "support/test_support.h"

namespace bookforge::engine {
namespace {

using test::board_of;

SearchResult search_depth(const chess::Board& board, int depth, int multipv = 1,
                          std::vector<chess::Move> moves = {}, const std::vector<uint64_t>& history = {}) {
  Engine engine(16, 1);
  SearchLimits limits;
  limits.depth = depth;
  limits.multipv = multipv;
  limits.search_moves = std::move(moves);
  return engine.search(board, history, limits);
}

bool long_tests() { return std::getenv("BOOKFORGE_LONG_TESTS") != nullptr; }

// A build with AddressSanitizer (scripts/test-sanitizers.sh, in Debug) searches some thirty
// times slower: the mate-in-three and mate-in-four files, tens of millions of nodes each in
// Release, took most of its time there, and the Release run searches them anyway.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitizedBuild = true;
#else
constexpr bool kSanitizedBuild = false;
#endif

// Searches until a mate in at most `moves` moves is found, or a depth or node cap is reached.
// Composed problems (quiet keys, sacrifices) can need far more depth than the mate's length.
Score find_mate(const chess::Board& board, int moves) {
  Engine engine(16, 1);
  SearchLimits limits;
  limits.depth = 2 * moves + 20;
  limits.nodes = 60'000'000;  // a ceiling: the search stops at the first mate found
  Score best = -kScoreInfinite;
  SearchListener listener;
  Engine* e = &engine;
  listener.on_info = [&](const SearchInfo& info) {
    if (info.multipv == 1 && info.line.bound == Bound::kExact) best = info.line.score;
    if (best >= mate_in(2 * moves - 1)) e->stop();
  };
  engine.search(board, {}, limits, listener);
  return best;
}

// ---------------------------------------------------------------------------------------------
// Mates

struct MateCase {
  const char* fen;
  int moves;
};

// A few mates of our own so that the suite runs without ../shared.
const MateCase kEmbeddedMates[] = {
    {"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1},  // back-rank mate Rd8#
    {"7k/8/6K1/8/8/8/Q7/8 w - - 99 80", 1},        // Qa8#, on the hundredth half-move
    {"r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1},  // scholar's mate
    {"6rk/6pp/8/6N1/8/8/8/6RK w - - 0 1", 1},                                    // smothered mate Nf7#
    {"r5k1/5ppp/8/8/8/8/4RPPP/4R1K1 w - - 0 1", 2},                              // Re8+ Rxe8 Rxe8#
    {"k7/8/1K6/8/8/8/8/7R w - - 0 1", 1},                                        // Rh8#
    {"8/8/8/8/8/5K2/7R/5k2 w - - 0 1", 1},                                       // Rh1#
    {"3k4/8/3K4/8/8/8/8/R7 w - - 0 1", 1},                                       // Ra8#
    {"6k1/8/6K1/8/8/8/8/R7 w - - 0 1", 1},                                       // Ra8#
};

TEST(SearchMates, EmbeddedPositions) {
  for (const MateCase& c : kEmbeddedMates) {
    const chess::Board b = board_of(c.fen);
    const SearchResult r = search_depth(b, 2 * c.moves + 2);
    ASSERT_FALSE(r.lines.empty()) << c.fen;
    EXPECT_GE(r.lines[0].score, mate_in(2 * c.moves - 1)) << c.fen;
    EXPECT_EQ(r.lines[0].score, mate_in(2 * c.moves - 1)) << c.fen << " (mate in " << c.moves << ")";
  }
}

TEST(SearchMates, MatedSideSeesItsLoss) {
  // Black to move, mated next move whatever it does.
  const SearchResult r = search_depth(board_of("7k/8/6K1/8/8/8/8/Q7 b - - 0 1"), 6);
  ASSERT_FALSE(r.lines.empty());
  EXPECT_EQ(r.lines[0].score, mated_in(2));
}

TEST(SearchMates, CheckmateAndStalemateAtTheRoot) {
  SearchResult r = search_depth(board_of("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"), 4);  // mated
  EXPECT_FALSE(r.best_move.is_ok());
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_EQ(r.lines[0].score, mated_in(0));
  r = search_depth(board_of("7k/8/6QK/8/8/8/8/8 b - - 0 1"), 4);  // stalemate
  EXPECT_FALSE(r.best_move.is_ok());
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_EQ(r.lines[0].score, kScoreDraw);
}

// The sunfish mate files: one FEN per line, mate in N for mateN.fen (some lines carry move
// counters of "1 0", which the FEN reader may reject; then the four position fields are used).
// The lines listed in `left_out` (1-based, non-empty lines) are not searched; each call says why.
// Every other line was checked to be a mate in N with Stockfish 15.1: "go mate N" finds it, or,
// for keys it does not find within 20 s, it sees a mate in N-1 after this engine's key move.
void check_mate_file(const std::filesystem::path& path, int moves, int every, const std::set<int>& left_out) {
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  int line_no = 0, tried = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    ++line_no;
    if (left_out.count(line_no)) continue;
    if (tried++ % every) continue;
    Result<chess::Board> b = chess::Board::from_fen(line);
    if (!b.ok()) {
      std::istringstream s(line);
      std::string f[4];
      s >> f[0] >> f[1] >> f[2] >> f[3];
      b = chess::Board::from_fen(f[0] + " " + f[1] + " " + f[2] + " " + f[3] + " 0 1");
    }
    ASSERT_TRUE(b.ok()) << path << ":" << line_no << ": " << b.error().message;
    EXPECT_GE(find_mate(*b, moves), mate_in(2 * moves - 1))
        << path.filename() << ":" << line_no << " " << line;
  }
  EXPECT_GT(tried, 0);
}

TEST(SearchMates, SunfishMateInOne) {
  BOOKFORGE_SHARED_OR_SKIP(path, "tactics/sunfish/mate1.fen");
  check_mate_file(path, 1, 1, {});
}

TEST(SearchMates, SunfishMateInTwo) {
  BOOKFORGE_SHARED_OR_SKIP(path, "tactics/sunfish/mate2.fen");
  check_mate_file(path, 2, long_tests() ? 1 : 10, {});
}

TEST(SearchMates, SunfishMateInThree) {
  if (kSanitizedBuild) GTEST_SKIP() << "searched by the Release run (see kSanitizedBuild)";
  BOOKFORGE_SHARED_OR_SKIP(path, "tactics/sunfish/mate3.fen");
  // The hardest, line 10 (1.a5, a quiet pawn move in a position eight pawns up), takes about
  // 44M nodes with double extensions (35M before them; 18M with the network before the one
  // trained on 9.5 M positions).
  check_mate_file(path, 3, 1, {});
}

TEST(SearchMates, SunfishMateInFour) {
  if (kSanitizedBuild) GTEST_SKIP() << "searched by the Release run (see kSanitizedBuild)";
  BOOKFORGE_SHARED_OR_SKIP(path, "tactics/sunfish/mate4.fen");
  // Lines 2, 11, 19, 23 and 27: neither Stockfish ("go mate 4", 10 s) nor this engine finds a
  // mate in four; they may be longer mates or studies. The hardest real ones, lines 16 and 26
  // (1.Rxc3 and 1.Qh8), take this engine about 3.4M and 3.6M nodes with the hand-written
  // evaluation; with the network, line 45 (1.Kd4) took between 8M and 12M, and with correction
  // history about 24M (a quiet king move whose mate the corrected evaluations hide longer).
  check_mate_file(path, 4, long_tests() ? 1 : 3, {2, 11, 19, 23, 27});
}

// ---------------------------------------------------------------------------------------------
// Draws

// Plays `uci` moves from `board`, collecting the keys of the positions left behind.
std::vector<uint64_t> play(chess::Board& board, const std::vector<std::string>& uci) {
  std::vector<uint64_t> history;
  for (const std::string& text : uci) {
    const chess::Move m = chess::uci_to_move(board, text);
    EXPECT_TRUE(m.is_ok()) << text;
    history.push_back(board.key());
    chess::UndoInfo undo;
    board.make_move(m, undo);
  }
  return history;
}

TEST(SearchDraws, ThreefoldRepetitionSavesTheLosingSide) {
  // White is a queen and a rook down; shuffling the knight repeats the position.
  const std::string fen = "k7/8/8/8/8/8/qr6/6NK w - - 0 1";
  chess::Board board = board_of(fen);
  const std::vector<uint64_t> history =
      play(board, {"g1f3", "a2a3", "f3g1", "a3a2", "g1f3", "a2a3", "f3g1", "a3a2"});
  // Ng1-f3 now brings about the position after it for the third time: a draw.
  const SearchResult with_history = search_depth(board, 6, 1, {}, history);
  ASSERT_FALSE(with_history.lines.empty());
  EXPECT_EQ(with_history.lines[0].score, kScoreDraw);
  EXPECT_EQ(chess::move_to_uci(with_history.best_move), "g1f3");
  // Without the game's history the same position is simply lost.
  const SearchResult without = search_depth(board_of(fen), 6);
  ASSERT_FALSE(without.lines.empty());
  EXPECT_LT(without.lines[0].score, -500);
}

TEST(SearchDraws, RepetitionInsideTheSearchIsADraw) {
  // Perpetual check: White, far behind, checks on h5 and e8 forever (Kh8-g8-h7-g8...). (With
  // the queen on e2 instead of d1, 1.Qe8+ Kh7 would reach the same position by another path,
  // and its TT entry, scored without the repetition, could hide the draw at this depth.)
  for (int depth : {4, 6, 8}) {
    const SearchResult r = search_depth(board_of("7k/6p1/8/8/8/n5K1/n7/rr1Q4 w - - 0 1"), depth);
    ASSERT_FALSE(r.lines.empty());
    EXPECT_EQ(r.lines[0].score, kScoreDraw) << depth;
    EXPECT_EQ(chess::move_to_uci(r.best_move), "d1h5") << depth;
  }
}

TEST(SearchDraws, FiftyMoveRule) {
  // A queen up, but every move makes the hundredth half-move without a capture or a mate.
  const SearchResult r = search_depth(board_of("8/8/8/4k3/8/8/8/3QK3 w - - 99 80"), 6);
  ASSERT_FALSE(r.lines.empty());
  EXPECT_EQ(r.lines[0].score, kScoreDraw);
  const SearchResult fresh = search_depth(board_of("8/8/8/4k3/8/8/8/3QK3 w - - 0 80"), 6);
  EXPECT_GT(fresh.lines[0].score, 500);
}

TEST(SearchDraws, InsufficientMaterialScoresZero) {
  const SearchResult r = search_depth(board_of("8/8/4k3/8/8/2B5/4K3/8 w - - 0 1"), 6);
  ASSERT_FALSE(r.lines.empty());
  EXPECT_EQ(r.lines[0].score, kScoreDraw);
}

// ---------------------------------------------------------------------------------------------
// Root move restriction and multi-PV

TEST(SearchRoot, MultiPvGivesDistinctMovesBestFirst) {
  const chess::Board b;
  const SearchResult r = search_depth(b, 6, 4);
  ASSERT_EQ(r.lines.size(), 4u);
  std::set<uint16_t> moves;
  for (const PvLine& l : r.lines) {
    EXPECT_TRUE(b.is_legal(l.move));
    ASSERT_FALSE(l.pv.empty());
    EXPECT_EQ(l.pv[0], l.move);
    EXPECT_EQ(l.bound, Bound::kExact);
    moves.insert(l.move.raw());
  }
  EXPECT_EQ(moves.size(), 4u);
  for (size_t i = 1; i < r.lines.size(); ++i) EXPECT_GE(r.lines[i - 1].score, r.lines[i].score);
  EXPECT_EQ(r.best_move, r.lines[0].move);
}

TEST(SearchRoot, MultiPvIsCappedByTheLegalMoves) {
  const SearchResult r = search_depth(board_of("7k/8/8/8/8/8/8/K7 w - - 0 1"), 4, 10);
  EXPECT_EQ(r.lines.size(), 3u);
}

TEST(SearchRoot, SearchMovesRestrictsTheRoot) {
  const chess::Board b;
  const std::vector<chess::Move> only = {chess::uci_to_move(b, "a2a3"), chess::uci_to_move(b, "h2h4")};
  SearchResult r = search_depth(b, 6, 1, only);
  EXPECT_TRUE(r.best_move == only[0] || r.best_move == only[1]) << chess::move_to_uci(r.best_move);
  r = search_depth(b, 6, 5, only);
  ASSERT_EQ(r.lines.size(), 2u);
  for (const PvLine& l : r.lines) EXPECT_TRUE(l.move == only[0] || l.move == only[1]);
}

TEST(SearchRoot, SearchMovesCanForceABlunderToBeScored) {
  // Black's queen is attacked: moving the king instead loses it, and the score shows it.
  const chess::Board b = board_of("4k3/8/8/3q4/8/8/8/3RK3 b - - 0 1");
  const SearchResult all = search_depth(b, 6);
  const SearchResult blunder = search_depth(b, 6, 1, {chess::uci_to_move(b, "e8f7")});
  EXPECT_EQ(chess::move_to_uci(blunder.best_move), "e8f7");
  EXPECT_LT(blunder.lines[0].score, all.lines[0].score - 500);
}

// ---------------------------------------------------------------------------------------------
// Limits and determinism

TEST(SearchLimitsTest, FixedDepthIsDeterministic) {
  const chess::Board b = board_of("r1bqkb1r/pppp1ppp/2n2n2/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
  const SearchResult a = search_depth(b, 9);
  const SearchResult c = search_depth(b, 9);
  EXPECT_EQ(a.nodes, c.nodes);
  EXPECT_EQ(a.best_move, c.best_move);
  EXPECT_EQ(a.lines[0].score, c.lines[0].score);
  EXPECT_EQ(a.depth, 9);
}

TEST(SearchLimitsTest, NodeLimitIsExactAndDeterministic) {
  const chess::Board b;
  Engine e1(16, 1), e2(16, 1);
  SearchLimits limits;
  limits.nodes = 20000;
  const SearchResult a = e1.search(b, {}, limits);
  const SearchResult c = e2.search(b, {}, limits);
  EXPECT_EQ(a.nodes, c.nodes);
  EXPECT_EQ(a.best_move, c.best_move);
  EXPECT_GE(a.nodes, 20000u);
  EXPECT_LT(a.nodes, 20000u + 200u);  // it stops within a few nodes of the budget
}

TEST(SearchLimitsTest, InfoLinesReportEveryDepth) {
  Engine engine(16, 1);
  SearchLimits limits;
  limits.depth = 7;
  std::vector<int> depths;
  SearchListener listener;
  listener.on_info = [&](const SearchInfo& info) {
    if (info.line.bound == Bound::kExact) depths.push_back(info.line.depth);
    EXPECT_FALSE(info.line.pv.empty());
  };
  const SearchResult r = engine.search(chess::Board(), {}, limits, listener);
  ASSERT_FALSE(depths.empty());
  EXPECT_EQ(depths.front(), 1);
  EXPECT_EQ(depths.back(), 7);
  EXPECT_EQ(r.depth, 7);
}

TEST(SearchLimitsTest, StopEndsAnInfiniteSearch) {
  Engine engine(16, 1);
  SearchLimits limits;
  limits.infinite = true;
  std::atomic<bool> done{false};
  SearchResult result;
  engine.start(chess::Board(), {}, limits, {}, [&](const SearchResult& r) {
    result = r;
    done = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(done.load());
  engine.stop();
  engine.wait();
  EXPECT_TRUE(done.load());
  EXPECT_TRUE(chess::Board().is_legal(result.best_move));
}

TEST(SearchLimitsTest, TwoThreadsFindTheSameMate) {
  Engine engine(16, 2);
  SearchLimits limits;
  limits.depth = 6;
  const SearchResult r = engine.search(board_of("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"), {}, limits);
  EXPECT_EQ(chess::move_to_uci(r.best_move), "d1d8");
  EXPECT_EQ(r.lines[0].score, mate_in(1));
}

}  // namespace
}  // namespace bookforge::engine
