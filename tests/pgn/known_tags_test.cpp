// The splitter hands the lexer the tags it scanned and where the movetext starts, so the lexer
// skips its own scan of the tag section. Both ways must tell a visitor exactly the same: these
// tests read every file once with the handed-over tags (the chunker at several block sizes)
// and once with the lexer scanning for itself, and compare what a visitor recorded.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "pgn/recording_visitor.h"
#include "support/test_support.h"

namespace bookforge::pgn::test {
namespace {

// The lexer's own scan: spans without known tags.
std::vector<RecordedGame> record_rescanning(std::string_view text) {
  Block block;
  block.data.resize(text.size());
  std::copy(text.begin(), text.end(), block.data.data());
  GameSplitter splitter;
  splitter.scan(block.data.data(), block.data.size(), true, block.games);
  RecordingVisitor visitor;
  for (const GameSpan& span : block.games) {
    EXPECT_FALSE(span.tags_known);
    visit_game(block, span, visitor);
  }
  return visitor.games;
}

// How many games of `text` come with known tags when read in one block.
size_t games_with_known_tags(std::string_view text) {
  std::vector<GameSpan> spans;
  std::vector<TagSpan> tags;
  GameSplitter splitter;
  splitter.scan(text.data(), text.size(), true, spans, &tags);
  return size_t(std::count_if(spans.begin(), spans.end(), [](const GameSpan& s) { return s.tags_known; }));
}

void expect_same_games(std::string_view text, const std::string& what) {
  const std::vector<RecordedGame> expected = record_rescanning(text);
  for (size_t block_size : {size_t(1) << 20, size_t(61), size_t(7)}) {
    SCOPED_TRACE(what + " at block size " + std::to_string(block_size));
    EXPECT_EQ(record_games(text, block_size), expected);
  }
}

TEST(KnownTags, CraftedTagSections) {
  // Each piece is a tag section shape the handed-over tags must reproduce, or must leave to
  // the lexer (the BOM after a tag, which the lexer skips and the splitter does not).
  const std::string text =
      "[Event \"plain\"]\n[Site \"x\"]\n\n1. e4 e5 1-0\n\n"
      "[Event \"moves on the tag line\"] 1. d4 d5 0-1\n\n"
      "[Event \"two\"] [Site \"per line\"]\r\n[Round \"3\"]\r\n\r\n1. c4 *\r\n\r\n"
      "  [Event \"indented\"]\n\t[White \"a \\\"b\\\" c\"]\n\n1. Nf3 1/2-1/2\n\n"
      "[Event \"gap\"]\n\n[Site \"after a blank line\"]\n%escape line\n1. e4 *\n\n"
      "[Event \"clock junk\"]\n[%clk 0:01:00]\n1. e4 *\n\n"
      "[Event \"bom\"]\xEF\xBB\xBF[Site \"after it\"]\n1. e4 *\n\n"
      "[Event \"broken value]\n[Site \"Club \"Victory\"\"]\n1. e4 *\n\n"
      "[Event \"unquoted\"]\n[Round 3]\n1. e4 *\n\n"
      "[Event \"tags only\"]\n[Site \"x\"]\n\n"
      "[Event \"next\"]\n; a comment\n1. e4 {c} *\n\n"
      "[Event \"last, no line break\"]";
  EXPECT_GE(games_with_known_tags(text), size_t(9));
  expect_same_games(text, "crafted");
}

TEST(KnownTags, TestDataFiles) {
  const std::filesystem::path dir = bookforge::test::source_dir() / "tests/data/pgn";
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".pgn") continue;
    expect_same_games(bookforge::test::read_file(entry.path()), entry.path().filename().string());
  }
}

TEST(KnownTags, SharedTrickyFiles) {
  BOOKFORGE_SHARED_OR_SKIP(dir, "pgn-tricky");
  size_t files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.path().extension() != ".pgn") continue;
    const std::string text = bookforge::test::read_file(entry.path());
    if (text.size() > (size_t(1) << 20)) continue;  // the small block sizes would be slow
    expect_same_games(text, entry.path().string());
    ++files;
  }
  EXPECT_GT(files, size_t(100));
}

}  // namespace
}  // namespace bookforge::pgn::test
