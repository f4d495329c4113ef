// The exit positions of a book (book/exits.h): where its lines end, evaluated and filtered.
#include "book/exits.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "chess/move_sequence.h"
#include "chess/polyglot_move.h"
#include "chess/san.h"
#include "support/test_support.h"

namespace bookforge::book {
namespace {

// The position after `line` (UCI moves) from the start, played by the CLI's move-list player.
chess::Board after(const std::vector<std::string>& line) {
  std::string moves;
  for (const std::string& uci : line) moves += uci + " ";
  chess::Board b;
  const Status played = chess::play_moves(b, moves);
  EXPECT_TRUE(played.ok()) << played.error().message;
  return b;
}

PolyglotEntry entry(const std::vector<std::string>& line, const std::string& uci, uint16_t weight = 1) {
  const chess::Board b = after(line);
  return {b.key(), chess::move_to_polyglot(chess::uci_to_move(b, uci)), weight, 0};
}

// 1.e4 (e5 | c5) and 1.d4, and the fool's mate 1.f3 e5 2.g4 Qh4#: the exits are the positions
// after 1.e4 e5, 1.e4 c5 and 1.d4 (the mate ends a game: no exit).
PolyglotBook sample_book() {
  const std::vector<PolyglotEntry> entries = {
      entry({}, "e2e4", 10),
      entry({}, "d2d4", 5),
      entry({}, "f2f3", 1),
      entry({"e2e4"}, "e7e5", 3),
      entry({"e2e4"}, "c7c5", 2),
      entry({"f2f3"}, "e7e5"),
      entry({"f2f3", "e7e5"}, "g2g4"),
      entry({"f2f3", "e7e5", "g2g4"}, "d8h4"),
  };
  Result<PolyglotBook> book = PolyglotBook::from_bytes(test::polyglot_bytes(entries), "sample.bin");
  EXPECT_TRUE(book.ok()) << book.error().message;
  return std::move(*book);
}

ExitOptions at_depth(int depth, int threads = 1) {
  ExitOptions o;
  o.depth = depth;
  o.threads = threads;
  return o;
}

TEST(Exits, AreThePositionsTheBookLeadsToWithoutMovesOfTheirOwn) {
  const PolyglotBook book = sample_book();
  ExitStats stats;
  auto exits = book_exits(book, at_depth(4), stats);
  ASSERT_TRUE(exits.ok()) << exits.error().message;
  std::set<std::string> fens;
  for (const ExitPosition& e : *exits) fens.insert(e.board.fen());
  EXPECT_EQ(fens, (std::set<std::string>{after({"e2e4", "e7e5"}).fen(), after({"e2e4", "c7c5"}).fen(),
                                         after({"d2d4"}).fen()}));
  EXPECT_EQ(stats.exits, 3u);
  EXPECT_EQ(stats.kept, 3u);
  for (const ExitPosition& e : *exits) {
    EXPECT_EQ(e.ply, e.board.game_ply()) << e.board.fen();  // the walk's distance from the start
    EXPECT_GE(e.depth, 4);
    EXPECT_LT(std::abs(e.white), 200) << e.board.fen();  // quiet opening positions
  }
}

TEST(Exits, TheBandKeepsOnlyScoresWithinIt) {
  const PolyglotBook book = sample_book();
  ExitStats all_stats;
  auto all = book_exits(book, at_depth(5), all_stats);
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 3u);
  // A band around the middle score keeps exactly the exits inside it.
  std::vector<engine::Score> scores;
  for (const ExitPosition& e : *all) scores.push_back(e.white);
  std::sort(scores.begin(), scores.end());
  ExitOptions band = at_depth(5);
  band.eval_min = scores[1];
  band.eval_max = scores[1];
  ExitStats stats;
  auto kept = book_exits(book, band, stats);
  ASSERT_TRUE(kept.ok());
  EXPECT_EQ(stats.exits, 3u);
  EXPECT_EQ(stats.kept, kept->size());
  ASSERT_GE(kept->size(), 1u);
  for (const ExitPosition& e : *kept) EXPECT_EQ(e.white, scores[1]);

  band.eval_min = 10;
  band.eval_max = -10;
  EXPECT_FALSE(band.validate().ok());
}

TEST(Exits, TheSameListForAnyNumberOfThreads) {
  const PolyglotBook book = sample_book();
  ExitStats a_stats, b_stats;
  auto one = book_exits(book, at_depth(6, 1), a_stats);
  auto three = book_exits(book, at_depth(6, 3), b_stats);
  ASSERT_TRUE(one.ok() && three.ok());
  EXPECT_EQ(exits_epd(*one), exits_epd(*three));
}

TEST(Exits, EpdLinesGiveTheScoreFromTheSideToMove) {
  ExitPosition white_to_move{after({"e2e4", "e7e5"}), 2, 31, 9};
  ExitPosition black_to_move{after({"d2d4"}), 1, 31, 9};
  const std::string epd = exits_epd({white_to_move, black_to_move});
  std::istringstream lines(epd);
  std::string first, second;
  std::getline(lines, first);
  std::getline(lines, second);
  EXPECT_EQ(first,
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 ce 31; acd 9; hmvc 0; fmvn 2; "
            "c0 \"bookforge exit, ply 2, white 31 cp\";");
  EXPECT_EQ(second.substr(0, second.find(';')),
            "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 ce -31");
}

// An external engine's name goes into the comment, where a quote in it would end the comment.
TEST(Exits, EpdCommentNamesTheExternalEngine) {
  const std::string epd = exits_epd({{after({"e2e4", "e7e5"}), 2, 31, 9}}, "Stockfish \"dev\"");
  EXPECT_NE(epd.find("; c0 \"bookforge exit, Stockfish 'dev', ply 2, white 31 cp\";\n"), std::string::npos)
      << epd;
}

}  // namespace
}  // namespace bookforge::book
