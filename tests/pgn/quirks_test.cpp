// One small file per quirk of real PGN (tests/data/pgn/), read through the chunker and the
// lexer: the tags, moves and results each one must give, and the same at tiny block sizes.
#include <gtest/gtest.h>

#include <filesystem>

#include "pgn/recording_visitor.h"
#include "support/test_support.h"

namespace bookforge::pgn::test {
namespace {

using Moves = std::vector<std::string>;

// Reads a quirk file at the default block size and checks that 1..5-byte blocks agree.
std::vector<RecordedGame> read_quirk(const std::string& name) {
  std::string text = test_pgn(name);
  EXPECT_FALSE(text.empty()) << name;
  std::vector<RecordedGame> games = record_games(text);
  for (size_t block = 1; block <= 5; ++block)
    EXPECT_EQ(record_games(text, block), games) << name << " at block size " << block;
  return games;
}

TEST(PgnQuirks, EveryQuirkFileGivesTheSameGamesAtEveryBlockSize) {
  size_t files = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(bookforge::test::source_dir() / "tests/data/pgn")) {
    std::string text = bookforge::test::read_file(entry.path());
    std::vector<RecordedGame> games = record_games(text);
    EXPECT_FALSE(games.empty()) << entry.path();
    for (size_t block : {1, 2, 3, 4, 5, 7, 64})
      EXPECT_EQ(record_games(text, block), games) << entry.path() << " at block size " << block;
    ++files;
  }
  EXPECT_GE(files, 25u);
}

TEST(PgnQuirks, EscapedQuotesAndBackslashesInTagValues) {
  auto g = read_quirk("escapes.pgn");
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].tag("Event"), "Club \"Kings\" Open");
  EXPECT_EQ(g[0].tag("Site"), "C:\\chess\\games");
  EXPECT_EQ(g[0].tag("White"), "O\"Neill, Pat");
  EXPECT_EQ(g[0].moves, (Moves{"e4", "e5", "Nf3"}));
  EXPECT_EQ(g[0].outcome, "1-0");
}

TEST(PgnQuirks, BracketsInsideTagValues) {
  auto g = read_quirk("brackets_in_values.pgn");
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].tag("Event"), "Batch 10: master[!important]");
  EXPECT_EQ(g[0].tag("Variation"), "closing ] opening");
  EXPECT_EQ(g[0].tag("Site"), "[x] [y]");
  EXPECT_EQ(g[0].moves, (Moves{"d4", "d5"}));
  EXPECT_EQ(g[0].outcome, "1/2-1/2");
}

TEST(PgnQuirks, UnescapedQuotesAndATrailingBackslash) {
  auto g = read_quirk("unescaped_quotes.pgn");
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].tag("Event"), "Tournament \"Championship\" Finals");
  EXPECT_EQ(g[0].tag("Site"), "Club \"Victory\"");
  EXPECT_EQ(g[0].tag("White"), "Tournament \\");
  EXPECT_EQ(g[0].moves, (Moves{"c4"}));
}

TEST(PgnQuirks, UnusualTagNames) {
  auto g = read_quirk("odd_tag_names.pgn");
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].tag("White_Elo"), "2100");
  EXPECT_EQ(g[0].tag("1stPlace"), "Anna");
  EXPECT_EQ(g[0].tag("My-Tag"), "x");
  EXPECT_EQ(g[0].tag("lowercase"), "y");
  EXPECT_EQ(g[0].moves, (Moves{"f3", "e5", "g4", "Qh4#"}));
  EXPECT_EQ(g[0].outcome, "0-1");
}

TEST(PgnQuirks, SeveralTagsPerLine) {
  auto g = read_quirk("several_tags_per_line.pgn");
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].tags.size(), 7u);
  EXPECT_EQ(g[0].tag("Date"), "2015.03.14");
  EXPECT_EQ(g[0].tag("Black"), "B");
  EXPECT_EQ(g[0].moves, (Moves{"e4"}));
}

TEST(PgnQuirks, LeadingWhitespaceAndMovesOnTheTagLine) {
  auto g = read_quirk("leading_whitespace.pgn");
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].tag("Event"), "Indented");
  EXPECT_EQ(g[0].tag("Result"), "*");
  EXPECT_EQ(g[0].moves, (Moves{"e4", "e5"}));
  EXPECT_EQ(g[1].tag("Event"), "Indented with moves on the tag line");
  EXPECT_EQ(g[1].moves, (Moves{"d4", "d5"}));
  EXPECT_EQ(g[1].line, 6u);
}

TEST(PgnQuirks, BlankLinesInsideTheTagSection) {
  auto g = read_quirk("blank_lines_in_tags.pgn");
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].tags.size(), 3u);
  EXPECT_EQ(g[0].moves, (Moves{"e4"}));
}

TEST(PgnQuirks, NoBlankLineBetweenGames) {
  auto g = read_quirk("no_blank_line.pgn");
  ASSERT_EQ(g.size(), 4u);
  EXPECT_EQ(g[0].moves, (Moves{"e4", "e5"}));
  EXPECT_EQ(g[1].tag("Event"), "Second");
  EXPECT_EQ(g[1].outcome, "0-1");
  // The third game has no result token: the next tag line still starts a new game.
  EXPECT_EQ(g[2].moves, (Moves{"c4"}));
  EXPECT_EQ(g[2].outcome, "");
  EXPECT_EQ(g[3].tag("Event"), "Fourth");
  EXPECT_EQ(g[3].moves, (Moves{"Nf3"}));
  EXPECT_EQ(g[3].line, 10u);
}

TEST(PgnQuirks, GamesWithoutTagsAreSeparatedByTheirResults) {
  auto g = read_quirk("no_tags.pgn");
  ASSERT_EQ(g.size(), 5u);
  EXPECT_TRUE(g[0].tags.empty());
  EXPECT_EQ(g[0].moves, (Moves{"e4", "e5", "Nf3", "Nc6"}));
  EXPECT_EQ(g[1].moves, (Moves{"d4", "d5"}));
  EXPECT_EQ(g[2].outcome, "1/2-1/2");
  EXPECT_EQ(g[3].moves, (Moves{"Nf3"}));
  EXPECT_EQ(g[3].line, 3u);
  // The last one has no result and runs to the end of the input.
  EXPECT_EQ(g[4].moves, (Moves{"e4", "c5"}));
  EXPECT_EQ(g[4].outcome, "");
}

TEST(PgnQuirks, GamesWithoutEventTag) {
  auto g = read_quirk("no_event_tag.pgn");
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].tag("Event"), "<missing>");
  EXPECT_EQ(g[0].comments, (Moves{" [%clk 0:03:00] ", " [%clk 0:03:00] "}));
  EXPECT_EQ(g[1].moves, (Moves{"d4"}));
}

TEST(PgnQuirks, MoveNumbersInEveryForm) {
  auto g = read_quirk("move_numbers.pgn");
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].moves, (Moves{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O"}));
}

TEST(PgnQuirks, CommentsOverManyLinesHideResultsAndBrackets) {
  auto g = read_quirk("multiline_comments.pgn");
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].moves, (Moves{"e4", "e5", "Nf3"}));
  ASSERT_EQ(g[0].comments.size(), 2u);
  EXPECT_NE(g[0].comments[0].find("[%clk 0:01:00] [#]"), std::string::npos);
  EXPECT_EQ(g[0].comments[1], "");
  EXPECT_EQ(g[0].outcome, "1-0");
}

TEST(PgnQuirks, RestOfLineComments) {
  auto g = read_quirk("semicolon_comments.pgn");
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].moves, (Moves{"e4", "e5", "Nf3"}));
  EXPECT_EQ(g[0].comments.size(), 2u);
  EXPECT_EQ(g[0].outcome, "1/2-1/2");
}

TEST(PgnQuirks, PercentEscapeLines) {
  auto g = read_quirk("percent_lines.pgn");
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].tags.size(), 2u);
  EXPECT_EQ(g[0].moves, (Moves{"e4", "e5"}));
  EXPECT_EQ(g[0].outcome, "1-0");
}

TEST(PgnQuirks, NagsAndSuffixAnnotations) {
  auto g = read_quirk("nags.pgn");
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].moves, (Moves{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"}));
  EXPECT_EQ(g[0].nags, (std::vector<int>{1, 1, 6, 3, 4, 5, 14, 2, 146}));
}

TEST(PgnQuirks, NestedVariations) {
  auto g = read_quirk("nested_variations.pgn");
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].moves, (Moves{"e4", "(", "d4", "d5", "(",  "Nf6", "c4", "(",  "Nf3", ")", "e6", ")",
                               "c4", ")", "e5", "(",  "c5", "Nf3", "(",  "c3", ")",   ")", "Nf3"}));
  EXPECT_EQ(g[0].comments, (Moves{"a (comment) with parens"}));
  // "1-0" inside a variation does not end the game.
  EXPECT_EQ(g[0].outcome, "1-0");
  EXPECT_TRUE(g[0].errors.empty());
}

TEST(PgnQuirks, EveryResultForm) {
  auto g = read_quirk("results.pgn");
  ASSERT_EQ(g.size(), 8u);
  const char* expected[] = {"1-0",           "0-1",      "1/2-1/2",      "*",
                            "\u00bd-\u00bd", "1\u20130", "1/2\u20141/2", "0\u20111"};
  for (size_t i = 0; i < g.size(); ++i) {
    EXPECT_EQ(g[i].outcome, expected[i]) << g[i];
    EXPECT_EQ(g[i].context_result, expected[i]);
    EXPECT_EQ(g[i].moves, (Moves{"e4"}));
  }
}

TEST(PgnQuirks, NullMovesReachTheVisitorAsMoves) {
  auto g = read_quirk("null_moves.pgn");
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].moves, (Moves{"e4", "--", "d4", "Z0", "c4"}));
  EXPECT_EQ(g[1].moves, (Moves{"--", "e5"}));
}

TEST(PgnQuirks, CastlingWithZerosIsAMoveNotAMoveNumber) {
  auto g = read_quirk("castling_zeros.pgn");
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].moves, (Moves{"e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "0-0", "d6", "d3", "Bg4", "Nc3", "Qd7",
                               "Be3", "0-0-0"}));
}

TEST(PgnQuirks, ByteOrderMarks) {
  auto g = read_quirk("bom.pgn");
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].tag("Event"), "BOM");
  EXPECT_EQ(g[1].tag("Event"), "BOM again");
  EXPECT_EQ(g[1].moves, (Moves{"d4"}));
}

TEST(PgnQuirks, CrlfLineEndings) {
  auto g = read_quirk("crlf.pgn");
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].tag("White"), "W");
  EXPECT_EQ(g[0].moves, (Moves{"e4", "e5", "Nf3", "Nc6"}));
  EXPECT_EQ(g[0].comments, (Moves{"a\r\ncomment"}));
  EXPECT_EQ(g[0].outcome, "0-1");
  EXPECT_EQ(g[1].line, 9u);
}

TEST(PgnQuirks, CarriageReturnOnlyLineEndings) {
  auto g = read_quirk("cr_only.pgn");
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].moves, (Moves{"e4", "e5"}));
  EXPECT_EQ(g[1].tag("Event"), "Second");
}

TEST(PgnQuirks, Latin1TagValuesDecodeToUtf8) {
  auto g = read_quirk("latin1.pgn");
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].tag("Event"), "Tournoi Fran\u00e7ais");
  EXPECT_EQ(g[0].tag("White"), "M\u00fcller, J\u00fcrgen");
  EXPECT_EQ(g[0].moves, (Moves{"e4"}));
}

TEST(PgnQuirks, NulBytesReadAsBlanks) {
  auto g = read_quirk("nul_bytes.pgn");
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].moves, (Moves{"e4", "e5", "Nf3"}));
  EXPECT_EQ(g[0].outcome, "1-0");
}

TEST(PgnQuirks, TruncatedLastGame) {
  auto g = read_quirk("truncated.pgn");
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].moves, (Moves{"e4", "e5", "Qh5"}));
  EXPECT_EQ(g[1].moves, (Moves{"d4", "d5", "c4", "dxc4"}));
  EXPECT_EQ(g[1].outcome, "");
  // Cut inside a comment or a token: still one game, no crash.
  std::string text = test_pgn("truncated.pgn");
  for (std::string tail : {" {never", " dx", " (1... e5", " 1/2-1"}) {
    auto cut = record_games(text + tail);
    ASSERT_EQ(cut.size(), 2u) << tail;
    for (size_t block = 1; block <= 5; ++block) EXPECT_EQ(record_games(text + tail, block), cut) << tail;
  }
  EXPECT_EQ(record_games(text + " {never")[1].errors, (Moves{"unterminated_comment@9"}));
  EXPECT_EQ(record_games(text + " (1... e5")[1].errors, (Moves{"unterminated_variation@9"}));
}

TEST(PgnQuirks, UnterminatedCommentSpoilsOnlyItsGame) {
  auto g = read_quirk("bad_games.pgn");
  ASSERT_EQ(g.size(), 6u);
  EXPECT_EQ(g[3].tag("Event"), "Unterminated comment");
  EXPECT_EQ(g[3].errors, (Moves{"unterminated_comment@21"}));
  EXPECT_EQ(g[4].tag("Event"), "Unterminated variation");
  ASSERT_EQ(g[4].errors.size(), 1u);
  EXPECT_EQ(g[4].errors[0].substr(0, 22), "unterminated_variation");
  EXPECT_EQ(g[5].tag("Event"), "Fine");
  EXPECT_EQ(g[5].moves, (Moves{"e4", "e5"}));
  EXPECT_TRUE(g[5].errors.empty());
}

TEST(PgnQuirks, MovesEndAtTheSameByteWhereverTheyFallInTheText) {
  // The lexer finds where moves end 32 bytes at a time and reuses what it found for the next
  // moves: shifting the text by 0..64 bytes puts every move, glued annotation and the long
  // token across a 32-byte boundary and into the text's last 32 bytes once.
  const std::string long_move = "Q" + std::string(40, 'a');
  for (size_t shift = 0; shift <= 64; ++shift) {
    const std::string text = "[Event \"Shift\"]\n\n" + std::string(shift, ' ') +
                             "1.e4! e5?! 2.Nf3$1 Nc6 3.Bb5 " + long_move + " Nf6!!\ta6 Bxc6\ndxc6 1-0\n";
    auto g = record_games(text);
    ASSERT_EQ(g.size(), 1u) << shift;
    EXPECT_EQ(g[0].moves, (Moves{"e4", "e5", "Nf3", "Nc6", "Bb5", long_move, "Nf6", "a6", "Bxc6", "dxc6"}))
        << shift;
    EXPECT_EQ(g[0].nags, (std::vector<int>{1, 6, 1, 3})) << shift;
    EXPECT_EQ(g[0].outcome, "1-0") << shift;
  }
}

TEST(PgnQuirks, VeryLongLinesAndComments) {
  // A 3 MB comment on one line and a 200,000-move line without any line break.
  std::string comment(3'000'000, 'x');
  std::string moves;
  for (int i = 0; i < 50'000; ++i) moves += "Nf3 Nf6 Ng1 Ng8 ";
  std::string text = "[Event \"Long\"]\n\n1. e4 {" + comment + "} e5 *\n[Event \"Longer\"]\n" + moves + "*";
  auto g = record_games(text, 4096);
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].comments.at(0).size(), comment.size());
  EXPECT_EQ(g[0].moves, (Moves{"e4", "e5"}));
  EXPECT_EQ(g[1].moves.size(), 200'000u);
  EXPECT_EQ(record_games(text, 1 << 20), g);
}

TEST(PgnQuirks, StrayBytesBetweenGamesAreNotGames) {
  std::string text =
      "[Event \"A\"]\n1. e4 1-0\n}\n) ] \"\n[/pgn]\n{ a comment between games }\n; and a line comment\n"
      "[Event \"B\"]\n1. d4 *\n";
  auto g = record_games(text);
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[1].tag("Event"), "B");
  for (size_t block = 1; block <= 5; ++block) EXPECT_EQ(record_games(text, block), g);
}

TEST(PgnQuirks, TagLineInsideACommentStartsANewGame) {
  std::string text = "[Event \"A\"]\n1. e4 { a comment that\n[Event \"B\"]\n1. d4 *\n";
  auto g = record_games(text);
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].errors, (Moves{"unterminated_comment@2"}));
  EXPECT_EQ(g[1].moves, (Moves{"d4"}));
}

TEST(PgnQuirks, GamesWithTagsOnlyComeApartAtARepeatedTag) {
  auto g = read_quirk("tags_only.pgn");
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g[0].tag("Result"), "1-0");
  EXPECT_TRUE(g[0].moves.empty());
  EXPECT_EQ(g[1].tag("Event"), "B");
  EXPECT_EQ(g[1].line, 4u);
  // A blank line inside a tag section does not split it; a tag seen before does.
  EXPECT_EQ(g[2].tag("Site"), "C-site");
  EXPECT_EQ(g[2].tags.size(), 3u);
}

}  // namespace
}  // namespace bookforge::pgn::test
