#include "pgn/pipeline_test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

namespace bookforge::pgn::test {

namespace {

class CollectingSink final : public GameSink {
 public:
  std::vector<CollectedGame> games;
  void on_game(const ReplayedGame& g) override {
    CollectedGame c;
    c.game_number = g.game_number;
    c.outcome = g.outcome;
    c.white_elo = g.white_elo;
    c.black_elo = g.black_elo;
    c.start_ply = g.start_ply;
    c.offset_in_file = g.offset_in_file;
    c.plies.assign(g.plies.begin(), g.plies.end());
    games.push_back(std::move(c));
  }
};

bool same_bad(const BadGame& a, const BadGame& b) {
  return a.file == b.file && a.game_number == b.game_number && a.line == b.line && a.reason == b.reason &&
         a.detail == b.detail && a.global_game_number == b.global_game_number;
}

}  // namespace

bool CollectedGame::operator==(const CollectedGame& o) const {
  if (game_number != o.game_number || outcome != o.outcome || white_elo != o.white_elo ||
      black_elo != o.black_elo || start_ply != o.start_ply || offset_in_file != o.offset_in_file ||
      plies.size() != o.plies.size())
    return false;
  for (size_t i = 0; i < plies.size(); ++i)
    if (plies[i].key != o.plies[i].key || plies[i].move != o.plies[i].move || plies[i].ply != o.plies[i].ply)
      return false;
  return true;
}

PipelineRun run_pipeline(const std::vector<std::string>& inputs,
                         const std::function<void(PipelineOptions&)>& adjust) {
  PipelineOptions options;
  options.inputs = inputs;
  options.threads = 2;
  if (adjust) adjust(options);
  std::vector<std::unique_ptr<CollectingSink>> sinks;
  for (int i = 0; i < pipeline_threads(options); ++i) sinks.push_back(std::make_unique<CollectingSink>());
  Result<ReadStats> stats = read_games(options, [&](int i) -> GameSink& { return *sinks.at(size_t(i)); });
  PipelineRun run;
  run.ok = stats.ok();
  if (!stats) {
    run.error = stats.error().message;
    return run;
  }
  run.stats = *stats;
  for (auto& sink : sinks) run.games.insert(run.games.end(), sink->games.begin(), sink->games.end());
  std::sort(run.games.begin(), run.games.end(),
            [](const CollectedGame& a, const CollectedGame& b) { return a.game_number < b.game_number; });
  return run;
}

void expect_same_run(const PipelineRun& run, const PipelineRun& reference, const std::string& label) {
  ASSERT_EQ(run.ok, reference.ok) << label << ": " << run.error;
  const ReadStats& a = run.stats;
  const ReadStats& b = reference.stats;
  EXPECT_EQ(a.games, b.games) << label;
  EXPECT_EQ(a.accepted, b.accepted) << label;
  EXPECT_EQ(a.rejected, b.rejected) << label;
  EXPECT_EQ(a.bad, b.bad) << label;
  EXPECT_EQ(a.bad_reasons, b.bad_reasons) << label;
  EXPECT_EQ(a.unsupported_variant, b.unsupported_variant) << label;
  EXPECT_EQ(a.plies, b.plies) << label;
  EXPECT_EQ(a.bytes, b.bytes) << label;
  ASSERT_EQ(a.bad_examples.size(), b.bad_examples.size()) << label;
  for (size_t i = 0; i < a.bad_examples.size(); ++i)
    EXPECT_TRUE(same_bad(a.bad_examples[i], b.bad_examples[i])) << label << " bad example " << i;
  EXPECT_TRUE(run.games == reference.games) << label;
}

uint64_t polyglot_key_of(const std::string& fen) {
  Result<chess::Board> board = chess::Board::from_fen(fen);
  EXPECT_TRUE(board.ok()) << fen;
  return board ? board->key() : 0;
}

}  // namespace bookforge::pgn::test
