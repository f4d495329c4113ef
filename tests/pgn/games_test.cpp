// Real databases (../shared/data/games): game counts against an independent count of tag
// lines, and compressed copies made with the command-line tools giving the same results.
#include <gtest/gtest.h>

#include <cstdlib>

#include "pgn/pipeline_test_support.h"
#include "support/test_support.h"

namespace bookforge::pgn::test {
namespace {

using bookforge::test::read_file;
using bookforge::test::run_program;
using bookforge::test::TempDir;
using bookforge::test::write_file;

// Lines that start with `prefix`, counted directly in the file's bytes.
uint64_t count_lines_starting(const std::string& text, std::string_view prefix) {
  uint64_t n = 0;
  for (size_t pos = 0; pos < text.size();) {
    if (text.compare(pos, prefix.size(), prefix) == 0) ++n;
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return n;
}

// Everything but the input's size and name must agree.
void expect_same_games(PipelineRun run, const PipelineRun& reference, const std::string& label) {
  run.stats.bytes = reference.stats.bytes;
  for (size_t i = 0; i < run.stats.bad_examples.size() && i < reference.stats.bad_examples.size(); ++i)
    run.stats.bad_examples[i].file = reference.stats.bad_examples[i].file;
  expect_same_run(run, reference, label);
}

TEST(PgnGames, TwicGameCountEqualsEventTags) {
  BOOKFORGE_SHARED_OR_SKIP(path, "games/twic0920.pgn");
  const uint64_t events = count_lines_starting(read_file(path), "[Event ");
  EXPECT_EQ(events, 2245u);  // the README's figure
  PipelineRun run = run_pipeline({path.string()}, [](PipelineOptions& o) { o.max_ply = 30; });
  ASSERT_TRUE(run.ok) << run.error;
  EXPECT_EQ(run.stats.games, events);
  EXPECT_EQ(run.stats.games, run.stats.accepted + run.stats.bad + run.stats.unsupported_variant);
  EXPECT_EQ(run.stats.bytes, std::filesystem::file_size(path));
}

TEST(PgnGames, LichessGameCountsEqualSiteTags) {
  for (const char* name :
       {"games/lichess-org-database_2016-05.pgn", "games/lichess-org-database_2017-05.pgn"}) {
    BOOKFORGE_SHARED_OR_SKIP(path, name);
    const std::string text = read_file(path);
    EXPECT_EQ(count_lines_starting(text, "[Event "), 0u) << name;  // these exports have no [Event]
    const uint64_t sites = count_lines_starting(text, "[Site ");
    EXPECT_GT(sites, 0u);
    PipelineRun run = run_pipeline({path.string()});
    ASSERT_TRUE(run.ok) << run.error;
    EXPECT_EQ(run.stats.games, sites) << name;
    EXPECT_EQ(run.stats.bad, 0u) << name;
  }
}

TEST(PgnGames, CompressedCopiesGiveTheSameResults) {
  BOOKFORGE_SHARED_OR_SKIP(path, "games/twic0920.pgn");
  TempDir dir;
  const std::string plain = (dir / "twic.pgn").string();
  std::filesystem::copy_file(path, plain);
  PipelineRun reference = run_pipeline({plain}, [](PipelineOptions& o) { o.max_ply = 40; });
  ASSERT_TRUE(reference.ok);
  const std::vector<std::pair<std::vector<std::string>, std::string>> tools = {{{"gzip", "-k"}, ".gz"},
                                                                               {{"bzip2", "-k"}, ".bz2"},
                                                                               {{"xz", "-k", "-T1"}, ".xz"},
                                                                               {{"zstd", "-q"}, ".zst"}};
  for (auto [argv, suffix] : tools) {
    argv.push_back(plain);
    ASSERT_EQ(run_program(argv).exit_code, 0) << argv[0];
    PipelineRun run = run_pipeline({plain + suffix}, [](PipelineOptions& o) { o.max_ply = 40; });
    ASSERT_TRUE(run.ok) << run.error;
    EXPECT_EQ(run.stats.bytes, std::filesystem::file_size(plain + suffix)) << suffix;
    expect_same_games(run, reference, suffix);
  }
}

TEST(PgnGames, MultiMemberGzipAndMultiStreamBzip2) {
  BOOKFORGE_SHARED_OR_SKIP(path, "games/twic0920.pgn");
  TempDir dir;
  const std::string text = read_file(path);
  PipelineRun reference = run_pipeline({path.string()});
  // Three pieces cut in the middle of games, compressed separately and concatenated.
  const size_t a = text.size() / 3 + 11, b = 2 * text.size() / 3 + 5;
  for (const char* tool : {"gzip", "bzip2"}) {
    std::string joined;
    for (auto [from, to] : {std::pair{size_t(0), a}, std::pair{a, b}, std::pair{b, text.size()}}) {
      const std::string piece = (dir / ("piece" + std::to_string(from))).string();
      write_file(piece, text.substr(from, to - from));
      auto r = run_program({tool, "-c", piece});
      ASSERT_EQ(r.exit_code, 0);
      joined += r.out;
    }
    const std::string joined_path = (dir / (std::string("joined.") + tool)).string();
    write_file(joined_path, joined);
    PipelineRun run = run_pipeline({joined_path});
    ASSERT_TRUE(run.ok) << run.error;
    expect_same_games(run, reference, tool);
  }
}

TEST(PgnGames, CorruptGzipStopsWithFileAndOffset) {
  BOOKFORGE_SHARED_OR_SKIP(path, "games/twic0920.pgn");
  TempDir dir;
  auto r = run_program({"gzip", "-c", path.string()});
  ASSERT_EQ(r.exit_code, 0);
  std::string packed = r.out;
  for (size_t i = packed.size() / 2; i < packed.size() / 2 + 64; ++i) packed[i] = char(~packed[i]);
  const std::string bad = (dir / "broken.pgn.gz").string();
  write_file(bad, packed);
  PipelineRun run = run_pipeline({bad});
  ASSERT_FALSE(run.ok);
  EXPECT_NE(run.error.find(bad), std::string::npos) << run.error;
  EXPECT_NE(run.error.find("byte"), std::string::npos) << run.error;
}

TEST(PgnGames, PgnmentorCountsMatchZstdcatGrep) {
  // 3 x 92 MB: set BOOKFORGE_LONG_TESTS=1 to run.
  if (!std::getenv("BOOKFORGE_LONG_TESTS")) GTEST_SKIP() << "set BOOKFORGE_LONG_TESTS=1";
  for (const char* name : {"games/pgnmentor_players_part1_Alekhine-Ivanchuk.pgn.zst",
                           "games/pgnmentor_players_part2_IvanovA-Petrosian.pgn.zst",
                           "games/pgnmentor_players_part3_Philidor-Zvjaginsev.pgn.zst"}) {
    BOOKFORGE_SHARED_OR_SKIP(path, name);
    auto grep = run_program({"sh", "-c", "zstdcat '" + path.string() + "' | grep -c '^\\[Event '"});
    const uint64_t events = std::stoull(grep.out);
    PipelineRun run = run_pipeline({path.string()}, [](PipelineOptions& o) { o.max_ply = 40; });
    ASSERT_TRUE(run.ok) << run.error;
    EXPECT_EQ(run.stats.games, events) << name;
  }
}

}  // namespace
}  // namespace bookforge::pgn::test
