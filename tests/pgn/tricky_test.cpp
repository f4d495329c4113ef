// The edge-case files other PGN parsers test with (../shared/data/pgn-tricky): every one is
// read without a crash and gives the same result at a tiny block size, and for a chosen set
// the numbers of games, bad games and unsupported variants are known.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "pgn/pipeline_test_support.h"
#include "support/test_support.h"

namespace bookforge::pgn::test {
namespace {

struct Expected {
  uint64_t games;
  uint64_t bad;
  uint64_t unsupported;
};

// Where each number comes from (read off the files by hand):
//   - a game is counted per [Event]/[Site]/... tag section or, without tags, per result-ended
//     move list; "ev" below is `grep -c '^\[Event '` where it applies;
//   - "bad" is a game whose moves cannot be replayed; "unsupported" has a non-standard
//     [Variant] tag.
const std::map<std::string, Expected> kExpected = {
    // python-chess data/pgn
    {"python-chess/anastasian-lewis.pgn", {1, 0, 0}},
    {"python-chess/antichess-programfox.pgn", {2, 0, 2}},     // two [Variant "Antichess"] games, no [Event]
    {"python-chess/chessbase-empty-line.pgn", {1, 0, 0}},     // a blank line inside the tags: still one game
    {"python-chess/cutechess-fischerrandom.pgn", {4, 0, 4}},  // 4 x [Variant "fischerandom"]
    {"python-chess/kasparov-deep-blue-1997.pgn", {6, 0, 0}},  // ev = 6
    {"python-chess/knightvuillaume-jannlee-zh-lichess.pgn", {1, 0, 1}},  // crazyhouse
    {"python-chess/molinari-bordais-1979.pgn", {1, 0, 0}},
    {"python-chess/nepomniachtchi-liren-game1.pgn", {1, 0, 0}},
    {"python-chess/saturs-jannlee-zh-lichess.pgn", {1, 0, 1}},  // crazyhouse
    {"python-chess/stockfish-learning.pgn", {1, 0, 0}},
    {"python-chess/uci-moves.pgn", {1, 0, 0}},  // moves in UCI notation replay too
    {"python-chess/utf8-bom.pgn", {2, 0, 0}},   // [Event "A"] behind a BOM, [Event "B"]
    // chess-library tests/pgns + fuzz corpus
    {"chess-library/backslash_header.pgn", {1, 0, 0}},
    {"chess-library/basic.pgn", {1, 0, 0}},
    {"chess-library/black2move.pgn", {1, 1, 0}},  // 1...0-0-0 with the queen still on d8: illegal
    {"chess-library/book.pgn", {1, 0, 0}},
    {"chess-library/castling.pgn", {1, 0, 0}},
    {"chess-library/comment_before_moves.pgn", {1, 0, 0}},
    {"chess-library/corrupted.pgn", {1, 1, 0}},  // the file stops inside "63. Kx"
    {"chess-library/empty_body.pgn", {2, 0, 0}},
    {"chess-library/fuzz_bare", {1, 0, 0}},  // moves only, ends with 1/2-1/2
    {"chess-library/fuzz_fishtest-fastchess.pgn", {4, 0, 0}},
    {"chess-library/fuzz_kasparov-deep-blue.pgn", {6, 0, 0}},
    {"chess-library/fuzz_magnus-grischuk.pgn", {1, 0, 0}},
    {"chess-library/multiple.pgn", {4, 0, 0}},
    {"chess-library/newline.pgn", {1, 0, 0}},
    {"chess-library/no_moves.pgn", {1, 0, 0}},
    // Two tag sections without [Event], each followed by a comment and 0-1.
    {"chess-library/no_moves_but_comment_followed_by_termination_marker.pgn", {2, 0, 0}},
    {"chess-library/no_moves_but_game_termination.pgn", {1, 0, 0}},
    {"chess-library/no_moves_but_game_termination_2.pgn", {1, 0, 0}},
    {"chess-library/no_moves_but_game_termination_3.pgn", {1, 0, 0}},
    {"chess-library/no_moves_but_game_termination_multiple.pgn", {2, 0, 0}},
    {"chess-library/no_moves_but_game_termination_multiple_2.pgn", {3, 0, 0}},  // 3 x [FEN] + 1/2-1/2
    {"chess-library/no_moves_two_games.pgn", {2, 0, 0}},
    {"chess-library/no_result.pgn", {1, 0, 0}},
    {"chess-library/non_ascii.pgn", {1, 0, 0}},
    {"chess-library/skip.pgn", {2, 0, 0}},
    {"chess-library/square_bracket_in_header.pgn", {1, 0, 0}},
    {"chess-library/threefold_repetition.pgn", {1, 0, 0}},  // [Variant "From Position"] is standard chess
    {"chess-library/unescaped_quote_header.pgn", {1, 0, 0}},
    {"chess-library/variations.pgn", {1, 0, 0}},
    // Larger collections: games = number of tag sections (ev), or of lines for sunfish's one
    // game per line; uzchesscup and FWWRC hold games with tags only (FWWRC: ev = 605;
    // uzchesscup: one [Event] but 45 [White] tag sections, split where a tag repeats).
    {"scalachess/FWWRC.pgn", {605, 0, 0}},
    {"scalachess/uzchesscup.pgn", {45, 0, 0}},
    {"sunfish/pgns.pgn", {278, 0, 0}},
    {"sunfish/gaviota-starters.pgn", {2400, 0, 0}},
    {"pychess/world_matches.pgn", {580, 0, 0}},
    {"pychess/dortmund.pgn", {347, 0, 0}},
    {"mliebelt-pgn-parser/twic-01-232games.pgn", {232, 0, 0}},
    // Three games; two carry "\$14" (a NAG escaped for a Dart string) in their moves.
    {"dartchess/wcc_2023.pgn", {3, 2, 0}},
};

// .pgn files in which no game has a tag section or a legal move: the reader refuses them as not
// PGN (as it may the folder's other files: licences, expected outputs, fuzz inputs).
const std::set<std::string> kNotPgn = {
    "pychess/badpgn.pgn",  // one tag-like line of junk, then junk
};

TEST(PgnTricky, EveryFileReadsWithoutCrashAtAnyBlockSize) {
  BOOKFORGE_SHARED_OR_SKIP(root, "pgn-tricky");
  size_t files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    const std::string path = entry.path().string();
    PipelineRun normal = run_pipeline({path});
    const bool refused = !normal.ok && (normal.error.find(": not PGN: ") != std::string::npos ||
                                        normal.error.find(": empty input") != std::string::npos);
    if (kNotPgn.count(std::filesystem::relative(entry.path(), root).string())) {
      EXPECT_TRUE(refused) << path << ": " << normal.error;
      continue;
    }
    if (refused && entry.path().extension() != ".pgn") continue;
    ASSERT_TRUE(normal.ok) << path << ": " << normal.error;
    EXPECT_EQ(normal.stats.games, normal.stats.accepted + normal.stats.bad + normal.stats.unsupported_variant)
        << path;
    if (entry.file_size() < 50'000) {
      PipelineRun tiny = run_pipeline({path}, [](PipelineOptions& o) {
        o.block_size = 3;
        o.threads = 1;
      });
      expect_same_run(tiny, normal, path + " at block size 3");
    }
    ++files;
  }
  EXPECT_GT(files, 300u);
}

TEST(PgnTricky, KnownGameAndBadGameCounts) {
  BOOKFORGE_SHARED_OR_SKIP(root, "pgn-tricky");
  for (const auto& [name, expected] : kExpected) {
    PipelineRun run = run_pipeline({(root / name).string()});
    ASSERT_TRUE(run.ok) << name << ": " << run.error;
    EXPECT_EQ(run.stats.games, expected.games) << name;
    EXPECT_EQ(run.stats.bad, expected.bad) << name;
    EXPECT_EQ(run.stats.unsupported_variant, expected.unsupported) << name;
  }
}

TEST(PgnTricky, GamesWithoutTagsOneLineEach) {
  // sunfish/pgns.pgn: every non-empty line is one game ending in its result.
  BOOKFORGE_SHARED_OR_SKIP(path, "pgn-tricky/sunfish/pgns.pgn");
  std::string text = bookforge::test::read_file(path);
  uint64_t lines = 0;
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n' && i > 0 && text[i - 1] != '\n') ++lines;
  PipelineRun run = run_pipeline({path.string()});
  EXPECT_EQ(run.stats.games, lines);
  EXPECT_EQ(run.stats.accepted, lines);
}

}  // namespace
}  // namespace bookforge::pgn::test
