// What the reader takes for PGN: an input in which no game has a tag or a legal move is an
// error naming it; games that are filtered out or bad still make a PGN file. And a game with a
// huge number of distinct tags is read in time linear in its size.
#include <gtest/gtest.h>

#include <string>

#include "pgn/pipeline_test_support.h"
#include "support/test_support.h"

namespace bookforge::pgn::test {
namespace {

using bookforge::test::TempDir;
using bookforge::test::write_file;

// Bytes of compressed-looking noise: NULs, letters, digits and punctuation all occur, so the
// splitter finds many stretches of "movetext" in them.
std::string noise(size_t size) {
  std::string bytes;
  uint64_t x = 0x9e3779b97f4a7c15ull;
  while (bytes.size() < size) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    bytes += char(x & 0xFF);
  }
  return bytes;
}

TEST(NotPgn, BinaryAndProseAreErrorsNamingTheFile) {
  TempDir dir;
  const std::string good = (dir / "good.pgn").string();
  write_file(good, "[Event \"a\"]\n\n1. e4 e5 *\n");
  for (const auto& [name, text] : {std::pair<std::string, std::string>{"noise.bin", noise(200000)},
                                   {"prose.txt", "Dear club members,\nthe next round starts at 7.\n"},
                                   {"empty.pgn", ""},
                                   {"zeros.bin", std::string(5000, '\0')}}) {
    const std::string path = (dir / name).string();
    write_file(path, text);
    for (int threads : {1, 3}) {
      PipelineRun run = run_pipeline({good, path}, [&](PipelineOptions& o) {
        o.threads = threads;
        o.block_size = 4096;
      });
      EXPECT_FALSE(run.ok) << name;
      EXPECT_EQ(run.error.rfind(path + ": ", 0), 0u) << run.error;
    }
  }
  EXPECT_NE(run_pipeline({(dir / "noise.bin").string()}).error.find("not PGN"), std::string::npos);
  EXPECT_NE(run_pipeline({(dir / "empty.pgn").string()}).error.find("empty"), std::string::npos);
}

TEST(NotPgn, FilteredOutBadAndTagOnlyGamesAreStillPgn) {
  TempDir dir;
  const std::string tagged = (dir / "tagged.pgn").string();
  write_file(tagged, "[Event \"a\"]\n[WhiteElo \"1200\"]\n\n1. e4 e5 1-0\n");
  const std::string tagless = (dir / "tagless.pgn").string();
  write_file(tagless, "1. e4 e5 2. Nf3 1-0\n1. d4 d5 0-1\n");
  const std::string bad = (dir / "bad.pgn").string();
  write_file(bad, "[Event \"a\"]\n[Site \"b\"]\n\n1. e5 *\n");
  const std::string tags_only = (dir / "tags_only.pgn").string();
  write_file(tags_only, "[Event \"a\"]\n[Site \"b\"]\n");
  for (const std::string& path : {tagged, tagless, bad, tags_only}) {
    PipelineRun run = run_pipeline({path}, [](PipelineOptions& o) { o.filter.min_elo = 3000; });
    EXPECT_TRUE(run.ok) << path << ": " << run.error;
    EXPECT_EQ(run.stats.accepted, 0u) << path;
  }
  // Without a legal move, one line that reads as a tag is not enough, whatever the filters.
  const std::string wrong = (dir / "wrong.pgn").string();
  write_file(wrong, "Hello world\n[note: see below]\nNice day today\n");
  EXPECT_FALSE(run_pipeline({wrong}).ok);
  EXPECT_FALSE(run_pipeline({wrong}, [](PipelineOptions& o) { o.filter.min_elo = 3000; }).ok);
}

TEST(NotPgn, AGameWithManyDistinctTagsIsOneGame) {
  // The splitter asks, for every tag line, whether the open game has that tag already. With a
  // search through every earlier name this took 28 s for 400k tags; with the name index it is
  // linear (a fraction of a second).
  TempDir dir;
  std::string text;
  constexpr int kTags = 400000;
  for (int i = 0; i < kTags; ++i) text += "[Tag" + std::to_string(i) + " \"v\"]\n";
  // A name seen before starts the next game, found through the index here ...
  text += "[Tag7 \"again\"]\n\n1. e4 e5 *\n";
  // ... and by the plain search in a game with few tags.
  text += "[Event \"next\"]\n[Tag1 \"w\"]\n[Tag1 \"x\"]\n\n1. d4 *\n";
  write_file(dir / "tags.pgn", text);
  PipelineRun run = run_pipeline({(dir / "tags.pgn").string()});
  ASSERT_TRUE(run.ok) << run.error;
  EXPECT_EQ(run.stats.games, 4u);
  EXPECT_EQ(run.stats.accepted, 4u);
  EXPECT_EQ(run.stats.plies, 3u);
}

}  // namespace
}  // namespace bookforge::pgn::test
