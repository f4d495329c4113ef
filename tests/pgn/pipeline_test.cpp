// The whole reading pipeline on files: replay into (key, move, ply) records, counts, bad
// games, --strict, and results that do not depend on threads or block sizes.
#include "pgn/pipeline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>

#include "pgn/pipeline_test_support.h"
#include "support/test_support.h"

namespace bookforge::pgn::test {
namespace {

using bookforge::test::TempDir;
using bookforge::test::write_file;

std::vector<std::string> quirk_files() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(bookforge::test::source_dir() / "tests/data/pgn"))
    files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(PgnPipeline, ReplaysKeysAndMovesAsPolyglotDefinesThem) {
  TempDir dir;
  // The Polyglot specification's test line; keys are the published vectors.
  write_file(dir / "g.pgn",
             "[Event \"spec\"]\n[Result \"1-0\"]\n[WhiteElo \"2500\"]\n\n1. e4 d5 2. e5 f5 3. Ke2 Kf7 1-0\n");
  PipelineRun run = run_pipeline({(dir / "g.pgn").string()});
  ASSERT_TRUE(run.ok) << run.error;
  ASSERT_EQ(run.games.size(), 1u);
  const CollectedGame& g = run.games[0];
  EXPECT_EQ(g.outcome, Outcome::kWhiteWins);
  EXPECT_EQ(g.white_elo, 2500);
  EXPECT_EQ(g.black_elo, 0);
  EXPECT_EQ(g.game_number, 1u);
  EXPECT_EQ(g.start_ply, 0u);
  const uint64_t keys[] = {0x463b96181691fc9cull, 0x823c9b50fd114196ull, 0x0756b94461c50fb0ull,
                           0x662fafb965db29d4ull, 0x22a48b5a8e47ff78ull, 0x652a607ca3f242c1ull};
  // Polyglot move = to_file | to_row << 3 | from_file << 6 | from_row << 9.
  auto pg = [](int ff, int fr, int tf, int tr) { return uint16_t(tf | tr << 3 | ff << 6 | fr << 9); };
  const uint16_t moves[] = {pg(4, 1, 4, 3), pg(3, 6, 3, 4), pg(4, 3, 4, 4),
                            pg(5, 6, 5, 4), pg(4, 0, 4, 1), pg(4, 7, 5, 6)};
  ASSERT_EQ(g.plies.size(), 6u);
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(g.plies[i].key, keys[i]) << i;
    EXPECT_EQ(g.plies[i].move, moves[i]) << i;
    EXPECT_EQ(g.plies[i].ply, i);
  }
  EXPECT_EQ(run.stats.plies, 6u);
  EXPECT_EQ(run.stats.accepted, 1u);
}

TEST(PgnPipeline, MaxPlyLimitsTheRecordedPlies) {
  TempDir dir;
  write_file(dir / "g.pgn", "1. e4 d5 2. e5 f5 3. Ke2 Kf7 *\n");
  PipelineRun run = run_pipeline({(dir / "g.pgn").string()}, [](PipelineOptions& o) { o.max_ply = 4; });
  ASSERT_EQ(run.games.size(), 1u);
  EXPECT_EQ(run.games[0].plies.size(), 4u);
  EXPECT_EQ(run.stats.plies, 4u);
}

TEST(PgnPipeline, CastlingIsKingTakesRookAndZerosWork) {
  TempDir dir;
  write_file(dir / "g.pgn", test_pgn("castling_zeros.pgn"));
  PipelineRun run = run_pipeline({(dir / "g.pgn").string()});
  ASSERT_EQ(run.games.size(), 1u);
  ASSERT_EQ(run.games[0].plies.size(), 14u);
  EXPECT_EQ(run.games[0].plies[6].move, 4 << 6 | 7);                   // e1h1
  EXPECT_EQ(run.games[0].plies[13].move, (4 | 7 << 3) << 6 | 7 << 3);  // e8a8
}

TEST(PgnPipeline, GamesFromAFenStartThere) {
  TempDir dir;
  write_file(dir / "g.pgn", test_pgn("fen_setup.pgn"));
  PipelineRun run = run_pipeline({(dir / "g.pgn").string()});
  ASSERT_EQ(run.games.size(), 2u);
  EXPECT_EQ(run.games[0].plies.size(), 2u);
  EXPECT_EQ(run.games[0].plies[0].key, polyglot_key_of("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"));
  EXPECT_EQ(run.games[1].plies[0].key, polyglot_key_of("4k3/4p3/8/8/8/8/8/4K3 b - - 0 30"));
  EXPECT_EQ(run.games[1].plies[0].ply, 0u);
  // start_ply: Board::game_ply() of the start position; white to move at move 1 is 0, black to
  // move at move 30 is 2 * 29 + 1.
  EXPECT_EQ(run.games[0].start_ply, 0u);
  EXPECT_EQ(run.games[1].start_ply, 59u);
}

// Standard games by default, Chess960 ones counted as unsupported as they always were; with
// --variant chess960 or any, Chess960 games replayed from their Shredder-FEN; any other variant
// is counted as unsupported and never parsed.
TEST(PgnPipeline, VariantsAreFilteredOrUnsupported) {
  TempDir dir;
  write_file(dir / "g.pgn", test_pgn("variants.pgn"));
  struct Case {
    VariantSet variants;
    uint64_t accepted, rejected, unsupported;
  };
  for (const Case& c :
       {Case{kStandardOnly, 1, 0, 2}, Case{kChess960Only, 1, 1, 1}, Case{kAnyVariant, 2, 0, 1}}) {
    PipelineRun run =
        run_pipeline({(dir / "g.pgn").string()}, [&](PipelineOptions& o) { o.filter.variants = c.variants; });
    SCOPED_TRACE(std::string(variant_set_name(c.variants)));
    EXPECT_EQ(run.stats.games, 3u);
    EXPECT_EQ(run.stats.unsupported_variant, c.unsupported);  // crazyhouse, and Chess960 in a standard run
    EXPECT_EQ(run.stats.accepted, c.accepted);
    EXPECT_EQ(run.stats.rejected["variant"], c.rejected);
    EXPECT_EQ(run.stats.bad, 0u);
    if (c.variants == kChess960Only) {
      ASSERT_EQ(run.games.size(), 1u);
      EXPECT_EQ(run.games[0].plies.size(), 2u);
    }
  }
}

TEST(PgnFilter, VariantTagsNameStandardChessOrChess960) {
  for (const char* name : {"", "Standard", "chess", "NORMAL", "From Position", "fromPosition", " standard "})
    EXPECT_EQ(variant_of_tag(name), Variant::kStandard) << name;
  for (const char* name : {"Chess960", "chess 960", "Fischerandom", "FischerRandom", "fischer random", "960"})
    EXPECT_EQ(variant_of_tag(name), Variant::kChess960) << name;
  for (const char* name : {"Crazyhouse", "Atomic", "chess961", "Three-check"})
    EXPECT_EQ(variant_of_tag(name), std::nullopt) << name;
  GameFilter filter;
  EXPECT_TRUE(filter.empty());
  EXPECT_EQ(filter.describe(), "none");
  filter.variants = kChess960Only;
  EXPECT_FALSE(filter.empty());
  EXPECT_EQ(filter.describe(), "variant=chess960");
}

// Chess960 games (tagged "Chess960" or "Fischerandom"), each castling both ways, and a standard
// game. The keys are python-chess's (chess.polyglot.zobrist_hash) before each ply.
constexpr const char* kChess960Games =
    "[Variant \"Chess960\"]\n[FEN \"nqbnrbkr/pppppppp/8/8/8/8/PPPPPPPP/NQBNRBKR w HEhe - 0 1\"]\n[Result "
    "\"*\"]\n\n"
    "1. g3 g6 2. Bg2 Bg7 3. O-O O-O *\n\n"
    "[Variant \"Fischerandom\"]\n[FEN \"rbknqnbr/pppppppp/8/8/8/8/PPPPPPPP/RBKNQNBR w KQkq - 0 1\"]\n"
    "[Result \"*\"]\n\n1. Nde3 Nde6 2. a4 a5 3. Ba2 Ba7 4. O-O-O O-O-O *\n\n"
    "[Event \"standard\"]\n[Result \"*\"]\n\n1. e4 *\n";

TEST(PgnPipeline, Chess960GamesAreReadOnlyWhenAsked) {
  TempDir dir;
  write_file(dir / "g.pgn", kChess960Games);
  const std::string path = (dir / "g.pgn").string();

  const PipelineRun standard = run_pipeline({path});
  EXPECT_EQ(standard.stats.unsupported_variant, 2u);
  EXPECT_EQ(standard.stats.accepted, 1u);

  const PipelineRun chess960 =
      run_pipeline({path}, [](PipelineOptions& o) { o.filter.variants = kChess960Only; });
  EXPECT_EQ(chess960.stats.unsupported_variant, 0u);
  EXPECT_EQ(chess960.stats.bad, 0u);
  EXPECT_EQ(chess960.stats.rejected.at("variant"), 1u);
  ASSERT_EQ(chess960.games.size(), 2u);
  const std::vector<uint64_t> keys[2] = {
      {0x6fce9da618f9434c, 0x432826e7f82e9b74, 0xaa9c75bc83a1093f, 0x1f6c56c1ce4cd146, 0xafd06b77350b1aec,
       0x8c27575859b0336a},
      {0xa088b051136300cf, 0x69531c4a5a349871, 0x49908ab763874bce, 0x2259f45b0e149e00, 0xa443419a6d889290,
       0x8e94c2dadf9a0694, 0x253df875759cae6b, 0x622ddbf0ca5ea8df}};
  // Castling as king takes rook: g1h1 and g8h8 (the kings stay), c1a1 and c8a8.
  const uint16_t castles[2][2] = {{chess::kG1 * 64 + chess::kH1, chess::kG8 * 64 + chess::kH8},
                                  {chess::kC1 * 64 + chess::kA1, chess::kC8 * 64 + chess::kA8}};
  for (int g = 0; g < 2; ++g) {
    const CollectedGame& game = chess960.games[size_t(g)];
    ASSERT_EQ(game.plies.size(), keys[g].size());
    for (size_t i = 0; i < keys[g].size(); ++i) EXPECT_EQ(game.plies[i].key, keys[g][i]) << g << " " << i;
    EXPECT_EQ(game.plies[keys[g].size() - 2].move, castles[g][0]);
    EXPECT_EQ(game.plies[keys[g].size() - 1].move, castles[g][1]);
  }

  const PipelineRun any = run_pipeline({path}, [](PipelineOptions& o) { o.filter.variants = kAnyVariant; });
  EXPECT_EQ(any.stats.accepted, 3u);
  EXPECT_EQ(any.stats.unsupported_variant, 0u);
}

TEST(PgnPipeline, NullMoveEndsTheRecording) {
  TempDir dir;
  write_file(dir / "g.pgn", test_pgn("null_moves.pgn"));
  PipelineRun run = run_pipeline({(dir / "g.pgn").string()});
  ASSERT_EQ(run.games.size(), 2u);
  EXPECT_EQ(run.games[0].plies.size(), 1u);  // 1. e4, then "--"
  EXPECT_EQ(run.games[1].plies.size(), 0u);
  EXPECT_EQ(run.stats.bad, 0u);
}

TEST(PgnPipeline, ResultTagWinsOverMovetextUnlessItIsUnknown) {
  TempDir dir;
  write_file(dir / "g.pgn",
             "[Result \"0-1\"]\n1. e4 1-0\n\n[Result \"*\"]\n1. e4 1/2-1/2\n\n[Event \"none\"]\n1. e4\n\n"
             "[Result \"1/2-1/2\"]\n1. e4 *\n");
  PipelineRun run = run_pipeline({(dir / "g.pgn").string()});
  ASSERT_EQ(run.games.size(), 4u);
  EXPECT_EQ(run.games[0].outcome, Outcome::kBlackWins);
  EXPECT_EQ(run.games[1].outcome, Outcome::kDraw);
  EXPECT_EQ(run.games[2].outcome, Outcome::kUnknown);
  EXPECT_EQ(run.games[3].outcome, Outcome::kDraw);
}

TEST(PgnPipeline, BadGamesAreSkippedCountedAndReportedInInputOrder) {
  PipelineRun run = run_pipeline({(bookforge::test::source_dir() / "tests/data/pgn/bad_games.pgn").string()},
                                 [](PipelineOptions& o) {
                                   o.threads = 3;
                                   o.block_size = 16;
                                 });
  ASSERT_TRUE(run.ok) << run.error;
  EXPECT_EQ(run.stats.games, 6u);
  EXPECT_EQ(run.stats.accepted, 1u);
  EXPECT_EQ(run.stats.bad, 5u);
  EXPECT_EQ(run.stats.bad_reasons, (std::map<std::string, uint64_t>{{"ambiguous_move", 1},
                                                                    {"bad_fen", 1},
                                                                    {"illegal_move", 1},
                                                                    {"unterminated_comment", 1},
                                                                    {"unterminated_variation", 1}}));
  ASSERT_EQ(run.stats.bad_examples.size(), 5u);
  const char* reasons[] = {"illegal_move", "ambiguous_move", "bad_fen", "unterminated_comment",
                           "unterminated_variation"};
  const uint64_t lines[] = {4, 10, 13, 21, 27};
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(run.stats.bad_examples[i].reason, reasons[i]);
    EXPECT_EQ(run.stats.bad_examples[i].game_number, i + 1);
    EXPECT_EQ(run.stats.bad_examples[i].line, lines[i]);
    EXPECT_NE(run.stats.bad_examples[i].file.find("bad_games.pgn"), std::string::npos);
  }
  EXPECT_EQ(run.stats.bad_examples[0].detail,
            "move 2. Ke3: " + std::string(chess::san_error_message(chess::SanError::kNoSuchPiece)));
}

// The short SAN forms ("e4", "Nf3", "exd5") take a fast path; each of these games leaves it
// at its last move, which must still be judged as the general rules judge it.
TEST(PgnPipeline, ShortMoveFormsKeepTheirErrorsAndSpecialCases) {
  TempDir dir;
  write_file(dir / "g.pgn",
             "[Event \"pinned knight, one candidate\"]\n1. e4 e5 2. d4 Bb4+ 3. Nc3 Nf6 4. Nb5 *\n\n"
             "[Event \"two knights, no hint\"]\n1. Nf3 Nf6 2. d3 d6 3. Nd2 *\n\n"
             "[Event \"pawn takes nothing\"]\n1. e4 d5 2. exf5 *\n\n"
             "[Event \"blocked push\"]\n1. e4 e5 2. e5 *\n\n"
             "[Event \"en passant\"]\n1. e4 a6 2. e5 d5 3. exd6 *\n\n"
             "[Event \"pinned pawn, along the pin\"]\n1. Nf3 e5 2. Nxe5 Qe7 3. Nf3 Nc6 4. e4 Qxe4+ *\n");
  PipelineRun run = run_pipeline({(dir / "g.pgn").string()});
  ASSERT_TRUE(run.ok) << run.error;
  EXPECT_EQ(run.stats.games, 6u);
  EXPECT_EQ(run.stats.bad_reasons,
            (std::map<std::string, uint64_t>{{"ambiguous_move", 1}, {"illegal_move", 3}}));
  ASSERT_EQ(run.stats.bad_examples.size(), 4u);
  EXPECT_EQ(run.stats.bad_examples[0].detail,
            "move 4. Nb5: " + std::string(chess::san_error_message(chess::SanError::kIllegal)));
  EXPECT_EQ(run.stats.bad_examples[2].detail,
            "move 2. exf5: " + std::string(chess::san_error_message(chess::SanError::kNothingToCapture)));
  EXPECT_EQ(run.stats.bad_examples[3].detail,
            "move 2. e5: " + std::string(chess::san_error_message(chess::SanError::kPawnBlocked)));
  ASSERT_EQ(run.games.size(), 2u);
  EXPECT_EQ(run.games[0].plies.size(), 5u);  // exd6 is en passant
  EXPECT_EQ(run.games[1].plies.size(), 8u);
}

TEST(PgnPipeline, BadExamplesAreCappedButAllAreCounted) {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 30; ++i) text += "[Event \"" + std::to_string(i) + "\"]\n1. e4 e4 *\n";
  write_file(dir / "g.pgn", text);
  PipelineRun run = run_pipeline({(dir / "g.pgn").string()}, [](PipelineOptions& o) {
    o.max_reported_bad_games = 4;
    o.threads = 2;
    o.block_size = 64;
  });
  EXPECT_EQ(run.stats.bad, 30u);
  ASSERT_EQ(run.stats.bad_examples.size(), 4u);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(run.stats.bad_examples[i].game_number, i + 1);
}

TEST(PgnPipeline, StrictStopsAtTheFirstBadGameInInputOrder) {
  for (int threads : {1, 2, 4}) {
    PipelineRun run = run_pipeline(
        {(bookforge::test::source_dir() / "tests/data/pgn/bad_games.pgn").string()}, [&](PipelineOptions& o) {
          o.strict = true;
          o.threads = threads;
          o.block_size = 8;
        });
    EXPECT_FALSE(run.ok);
    EXPECT_NE(run.error.find("bad_games.pgn:4: game 1: move 2. Ke3"), std::string::npos) << run.error;
  }
  TempDir dir;
  write_file(dir / "g.pgn", "1. e4 *\n");
  EXPECT_TRUE(run_pipeline({(dir / "g.pgn").string()}, [](PipelineOptions& o) { o.strict = true; }).ok);
}

TEST(PgnPipeline, MinPliesCountsMovesPastTheReplayLimit) {
  TempDir dir;
  write_file(dir / "g.pgn", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *\n");
  auto with = [&](int max_ply, int min_plies) {
    return run_pipeline({(dir / "g.pgn").string()}, [&](PipelineOptions& o) {
      o.max_ply = max_ply;
      o.filter.min_plies = min_plies;
    });
  };
  PipelineRun ten = with(4, 10);
  EXPECT_EQ(ten.stats.accepted, 1u);
  EXPECT_EQ(ten.games.at(0).plies.size(), 4u);
  PipelineRun eleven = with(4, 11);
  EXPECT_EQ(eleven.stats.accepted, 0u);
  EXPECT_EQ(eleven.stats.rejected, (std::map<std::string, uint64_t>{{"min_plies", 1}}));
  EXPECT_EQ(with(0, 11).stats.rejected.at("min_plies"), 1u);
}

TEST(PgnPipeline, FiltersRejectByNameAndAreNotReplayed) {
  TempDir dir;
  write_file(dir / "g.pgn",
             "[WhiteElo \"2400\"]\n[BlackElo \"2300\"]\n[Result \"1-0\"]\n1. e4 e4 1-0\n\n"  // would be bad
             "[WhiteElo \"2600\"]\n[BlackElo \"2500\"]\n[Result \"*\"]\n1. e4 *\n\n"
             "[WhiteElo \"2600\"]\n[BlackElo \"2550\"]\n[Result \"0-1\"]\n1. d4 0-1\n");
  PipelineRun run = run_pipeline({(dir / "g.pgn").string()}, [](PipelineOptions& o) {
    o.filter.min_elo = 2500;
    o.filter.results = {"1-0", "0-1", "1/2-1/2"};
  });
  EXPECT_EQ(run.stats.games, 3u);
  EXPECT_EQ(run.stats.accepted, 1u);
  EXPECT_EQ(run.stats.bad, 0u);
  EXPECT_EQ(run.stats.rejected, (std::map<std::string, uint64_t>{{"min_elo", 1}, {"results", 1}}));
  ASSERT_EQ(run.games.size(), 1u);
  EXPECT_EQ(run.games[0].game_number, 3u);
}

TEST(PgnPipeline, GameNumbersRunOverAllInputsAndBadGamesNameTheirFile) {
  TempDir dir;
  write_file(dir / "a.pgn", "1. e4 *\n1. d4 *\n");
  write_file(dir / "b.pgn", "1. c4 *\n1. Kf2 *\n");
  PipelineRun run = run_pipeline({(dir / "a.pgn").string(), (dir / "b.pgn").string()});
  ASSERT_EQ(run.games.size(), 3u);
  EXPECT_EQ(run.games[2].game_number, 3u);
  ASSERT_EQ(run.stats.bad_examples.size(), 1u);
  EXPECT_EQ(run.stats.bad_examples[0].game_number, 2u);  // per file
  EXPECT_EQ(run.stats.bad_examples[0].global_game_number, 4u);
  EXPECT_EQ(run.stats.bad_examples[0].file, (dir / "b.pgn").string());
}

TEST(PgnPipeline, EachGameKnowsWhereItStartsInItsFileWhateverTheBlockSize) {
  TempDir dir;
  // An oversized game in between: its bytes are dropped while reading, the offsets go on.
  const std::string big = "[Event \"big\"]\n1. e4 {" + std::string(5000, 'x') + "} e5 *\n";
  const std::string text = "[Event \"a\"]\n1. e4 *\n\n" + big + "\n[Event \"b\"]\n1. d4 *\n1. c4 *\n";
  write_file(dir / "g.pgn", text);
  for (size_t block : {size_t(1), size_t(97), size_t(1) << 20}) {
    PipelineRun run = run_pipeline({(dir / "g.pgn").string()}, [&](PipelineOptions& o) {
      o.max_game_bytes = 1000;
      o.block_size = block;
    });
    ASSERT_EQ(run.games.size(), 3u);
    EXPECT_EQ(run.games[0].offset_in_file, 0u) << block;
    EXPECT_EQ(run.games[1].offset_in_file, text.find("[Event \"b\"]")) << block;
    EXPECT_EQ(run.games[2].offset_in_file, text.find("1. c4")) << block;
  }
}

TEST(PgnPipeline, SameResultsForAnyThreadCountAndBlockSize) {
  const std::vector<std::string> files = quirk_files();
  PipelineRun reference = run_pipeline(files, [](PipelineOptions& o) { o.threads = 1; });
  ASSERT_TRUE(reference.ok) << reference.error;
  EXPECT_GE(reference.stats.games, 60u);
  for (int threads : {1, 2, 3}) {
    for (size_t block : {size_t(1), size_t(2), size_t(3), size_t(5), size_t(97), size_t(4096)}) {
      PipelineRun run = run_pipeline(files, [&](PipelineOptions& o) {
        o.threads = threads;
        o.block_size = block;
      });
      ASSERT_TRUE(run.ok) << run.error;
      expect_same_run(run, reference,
                      "threads " + std::to_string(threads) + " block " + std::to_string(block));
    }
  }
}

TEST(PgnPipeline, StatsAddUp) {
  PipelineRun run = run_pipeline(quirk_files(), [](PipelineOptions& o) { o.filter.min_plies = 2; });
  uint64_t rejected = 0;
  for (const auto& [name, n] : run.stats.rejected) rejected += n;
  EXPECT_GT(rejected, 0u);
  EXPECT_EQ(run.stats.games, run.stats.accepted + rejected + run.stats.bad + run.stats.unsupported_variant);
}

TEST(PgnPipeline, OversizedGamesAreBadAndDoNotDependOnBlockSize) {
  TempDir dir;
  std::string big = "[Event \"big\"]\n1. e4 {" + std::string(5000, 'x') + "} e5 *\n";
  std::string text = "[Event \"a\"]\n1. e4 *\n" + big + "[Event \"b\"]\n1. d4 *\n" + big;
  write_file(dir / "g.pgn", text);
  PipelineRun reference =
      run_pipeline({(dir / "g.pgn").string()}, [](PipelineOptions& o) { o.max_game_bytes = 1000; });
  EXPECT_EQ(reference.stats.games, 4u);
  EXPECT_EQ(reference.stats.bad_reasons, (std::map<std::string, uint64_t>{{"oversized_game", 2}}));
  ASSERT_EQ(reference.stats.bad_examples.size(), 2u);
  EXPECT_EQ(reference.stats.bad_examples[0].line, 3u);
  for (size_t block : {1, 3, 100, 999, 1001, 5000}) {
    PipelineRun run = run_pipeline({(dir / "g.pgn").string()}, [&](PipelineOptions& o) {
      o.max_game_bytes = 1000;
      o.block_size = block;
    });
    expect_same_run(run, reference, "block " + std::to_string(block));
  }
}

TEST(PgnPipeline, MissingInputIsAnErrorNamingIt) {
  PipelineRun run = run_pipeline({"/nonexistent/dir/games.pgn"});
  EXPECT_FALSE(run.ok);
  EXPECT_NE(run.error.find("/nonexistent/dir/games.pgn"), std::string::npos);
  TempDir dir;
  PipelineRun d = run_pipeline({dir.path().string()});
  EXPECT_FALSE(d.ok);
  EXPECT_NE(d.error.find("directory"), std::string::npos);
}

TEST(PgnPipeline, ProgressReportsReachTheEnd) {
  const std::vector<std::string> files = quirk_files();
  std::mutex mutex;
  std::vector<Progress> reports;
  PipelineRun run = run_pipeline(files, [&](PipelineOptions& o) {
    o.progress = ProgressMode::kAlways;
    o.block_size = 64;
    o.on_progress = [&](const Progress& p) {
      std::lock_guard lock(mutex);
      reports.push_back(p);
    };
  });
  ASSERT_FALSE(reports.empty());
  EXPECT_TRUE(reports.back().done);
  EXPECT_EQ(reports.back().games, run.stats.games);
  EXPECT_EQ(reports.back().bytes_read, run.stats.bytes);
  EXPECT_EQ(reports.back().total_bytes, run.stats.bytes);
  // Never called when progress is off.
  bool called = false;
  run_pipeline(files, [&](PipelineOptions& o) { o.on_progress = [&](const Progress&) { called = true; }; });
  EXPECT_FALSE(called);
}

// Every sink hears on_end once, on its worker's thread, after its last game.
TEST(PgnPipeline, EachSinkEndsAfterItsLastGame) {
  struct EndingSink final : GameSink {
    std::thread::id thread;
    size_t games = 0, games_at_end = 0, ends = 0;
    bool same_thread = true;
    void on_game(const ReplayedGame&) override {
      if (games++ == 0) thread = std::this_thread::get_id();
      same_thread = same_thread && thread == std::this_thread::get_id();
    }
    void on_end() override {
      ++ends;
      games_at_end = games;
      same_thread = same_thread && (games == 0 || thread == std::this_thread::get_id());
    }
  };
  TempDir dir;
  std::string text;
  for (int i = 0; i < 500; ++i) text += "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n";
  write_file(dir.path() / "g.pgn", text);
  PipelineOptions options;
  options.inputs = {(dir.path() / "g.pgn").string()};
  options.threads = 3;
  options.block_size = 512;  // many blocks
  EndingSink sinks[3];
  auto stats = read_games(options, [&](int i) -> GameSink& { return sinks[i]; });
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  size_t total = 0;
  for (const EndingSink& s : sinks) {
    EXPECT_EQ(s.ends, 1u);
    EXPECT_EQ(s.games_at_end, s.games);
    EXPECT_TRUE(s.same_thread);
    total += s.games;
  }
  EXPECT_EQ(total, 500u);
}

}  // namespace
}  // namespace bookforge::pgn::test
