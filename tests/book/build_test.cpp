// book::build, the one entry point every build goes through: PGN files, a store made from the
// same files, and games fed from memory give the same book; an empty book is not written
// unless allowed; a request names exactly one source of games.
#include <filesystem>
#include <vector>

#include "book/build.h"
#include "store/add.h"
#include "support/test_support.h"

namespace bookforge::book {
namespace {

namespace fs = std::filesystem;

fs::path sample() { return test::source_dir() / "data-samples" / "lichess-2016-05-1000.pgn"; }

BuildRequest pgn_request(const fs::path& output) {
  BuildRequest request;
  request.output = output.string();
  request.pipeline.inputs = {sample().string()};
  request.pipeline.threads = 2;
  request.rules = SelectionRules::polyglot();
  request.rules.max_ply = 30;
  request.tally.memory_budget = uint64_t(64) << 20;
  return request;
}

// Every accepted game of the sample, replayed once, handed out again by a game source.
class HeldGames final : public pgn::GameSink {
 public:
  void on_game(const pgn::ReplayedGame& game) override {
    games_.push_back(game);
    plies_.emplace_back(game.plies.begin(), game.plies.end());
  }
  pgn::ReadStats replay(int workers, const pgn::SinkFactory& sinks) const {
    for (size_t i = 0; i < games_.size(); ++i) {
      pgn::ReplayedGame g = games_[i];
      g.plies = plies_[i];
      sinks(int(i % size_t(workers))).on_game(g);
    }
    for (int w = 0; w < workers; ++w) sinks(w).on_end();
    pgn::ReadStats stats;
    stats.games = stats.accepted = games_.size();
    return stats;
  }

 private:
  std::vector<pgn::ReplayedGame> games_;
  std::vector<std::vector<pgn::PlyRecord>> plies_;
};

TEST(Build, PgnStoreAndGameSourceGiveTheSameBook) {
  test::TempDir tmp;
  const BuildRequest from_pgn = pgn_request(tmp / "pgn.bin");
  Result<BuildReport> pgn = build(from_pgn);
  ASSERT_TRUE(pgn.ok()) << pgn.error().message;
  EXPECT_TRUE(pgn->written);
  EXPECT_EQ(pgn->read.accepted, 1000u);
  EXPECT_GT(pgn->outcome.stages.back().entries, 100u);

  // The same games counted into a store by db add, then built from it.
  store::StoreAddOptions add;
  add.db_path = (tmp / "games.sqlite").string();
  add.pipeline = from_pgn.pipeline;
  add.pipeline.max_ply = from_pgn.rules.max_ply;
  add.tally.count_repeats = true;
  add.tally.tmp_dir = tmp.path().string();
  Result<store::StoreAddReport> added = store::store_add(add);
  ASSERT_TRUE(added.ok()) << added.error().message;
  BuildRequest from_db = from_pgn;
  from_db.output = (tmp / "db.bin").string();
  from_db.pipeline.inputs.clear();
  from_db.from_db = add.db_path;
  Result<BuildReport> db = build(from_db);
  ASSERT_TRUE(db.ok()) << db.error().message;
  EXPECT_EQ(db->read.accepted, 1000u);

  // The same games held in memory, with three workers.
  HeldGames held;
  pgn::PipelineOptions read = from_pgn.pipeline;
  read.threads = 1;
  read.max_ply = from_pgn.rules.max_ply;
  ASSERT_TRUE(pgn::read_games(read, [&](int) -> pgn::GameSink& { return held; }).ok());
  BuildRequest from_memory = from_pgn;
  from_memory.output = (tmp / "memory.bin").string();
  from_memory.pipeline.inputs.clear();
  from_memory.pipeline.threads = 3;
  from_memory.games = [&](int workers, const pgn::SinkFactory& sinks) { return held.replay(workers, sinks); };
  Result<BuildReport> memory = build(from_memory);
  ASSERT_TRUE(memory.ok()) << memory.error().message;
  EXPECT_EQ(memory->threads, 3);

  const std::string book = test::read_file(tmp / "pgn.bin");
  EXPECT_EQ(test::read_file(tmp / "db.bin"), book);
  EXPECT_EQ(test::read_file(tmp / "memory.bin"), book);
}

TEST(Build, AnEmptyBookIsNotWrittenUnlessAllowed) {
  test::TempDir tmp;
  BuildRequest request = pgn_request(tmp / "empty.bin");
  request.rules.min_move_games = 1'000'000;  // no move of 1000 games passes
  Result<BuildReport> refused = build(request);
  ASSERT_TRUE(refused.ok()) << refused.error().message;
  EXPECT_FALSE(refused->written);
  EXPECT_EQ(refused->outcome.stages.back().entries, 0u);
  EXPECT_FALSE(fs::exists(tmp / "empty.bin"));
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp.path()), {}), 0) << "nothing half-written is left";

  request.allow_empty = true;
  Result<BuildReport> allowed = build(request);
  ASSERT_TRUE(allowed.ok()) << allowed.error().message;
  EXPECT_TRUE(allowed->written);
  EXPECT_TRUE(fs::exists(tmp / "empty.bin"));
  EXPECT_EQ(fs::file_size(tmp / "empty.bin"), 0u);
}

TEST(Build, ARequestNamesExactlyOneSourceOfGames) {
  test::TempDir tmp;
  BuildRequest both = pgn_request(tmp / "out.bin");
  both.from_db = (tmp / "store.sqlite").string();
  EXPECT_FALSE(build(both).ok());
  BuildRequest none = pgn_request(tmp / "out.bin");
  none.pipeline.inputs.clear();
  EXPECT_FALSE(build(none).ok());
  EXPECT_FALSE(fs::exists(tmp / "out.bin"));
}

}  // namespace
}  // namespace bookforge::book
