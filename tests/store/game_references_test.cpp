// The top and recent games of a position, and the records of the games, as db add collects
// them (store/game_references.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "store/game_references.h"
#include "support/test_support.h"

namespace bookforge::store {
namespace {

std::vector<uint64_t> fingerprints_at(const std::vector<PositionGame>& games, uint64_t key) {
  std::vector<uint64_t> out;
  for (const PositionGame& g : games)
    if (g.key == key) out.push_back(g.fingerprint);
  return out;
}

TEST(GameReferences, APositionKeepsItsFourTopAndFourRecentGames) {
  std::vector<PositionGame> games;
  // Key 7: ten games; ratings rise with the fingerprint, dates fall with it.
  for (uint64_t f = 1; f <= 10; ++f) games.push_back({7, f, uint32_t(20200000 - f), uint16_t(2000 + f)});
  // Key 9: three games, one of them seen twice (a repetition in the game).
  games.push_back({9, 5, 1, 1});
  games.push_back({9, 6, 1, 1});
  games.push_back({9, 5, 1, 1});
  keep_top_and_recent(games);
  // Top: 10, 9, 8, 7; recent: 1, 2, 3, 4 -- in stored (fingerprint) order.
  EXPECT_EQ(fingerprints_at(games, 7), (std::vector<uint64_t>{1, 2, 3, 4, 7, 8, 9, 10}));
  EXPECT_EQ(fingerprints_at(games, 9), (std::vector<uint64_t>{5, 6}));
}

TEST(GameReferences, TiesGoToTheSmallerFingerprintAsStored) {
  std::vector<PositionGame> games;
  // Six games of one rating and date: the four smallest fingerprints as stored (signed) win both
  // lists, so four are kept; the largest unsigned ones are negative as stored and come first.
  for (uint64_t f : {1ull, 2ull, 3ull, 4ull, 0x8000000000000001ull, 0xffffffffffffffffull})
    games.push_back({3, f, 20200101, 2500});
  keep_top_and_recent(games);
  EXPECT_EQ(fingerprints_at(games, 3),
            (std::vector<uint64_t>{0x8000000000000001ull, 0xffffffffffffffffull, 1, 2}));
}

class NoSink final : public pgn::GameSink {
 public:
  void on_game(const pgn::ReplayedGame&) override {}
};

struct Collected {
  std::vector<GameRecord> records;
  std::vector<PositionGame> positions;
  uint64_t spilled_runs = 0;
};

// The sample read twice (inputs 0 and 1, so every game has a copy) by two workers.
Collected collect(uint64_t memory, const std::string& tmp_dir) {
  GameReferences references(12, memory, 2, tmp_dir);
  NoSink sinks[2];
  for (int64_t input : {0, 1}) {
    pgn::PipelineOptions read;
    read.inputs = {(test::source_dir() / "data-samples" / "twic0920-2000.pgn").string()};
    read.threads = 2;
    read.max_ply = 30;
    EXPECT_TRUE(
        pgn::read_games(read, references.wrap([&](int i) -> pgn::GameSink& { return sinks[i]; }, input))
            .ok());
  }
  Collected out;
  EXPECT_TRUE(references.status().ok());
  const std::unique_ptr<GameRecordStream> records = references.records();
  for (GameRecord r; records->next(r);) out.records.push_back(r);
  EXPECT_TRUE(records->status().ok()) << records->status().error().message;
  Result<std::unique_ptr<PositionGameStream>> positions = references.positions();
  EXPECT_TRUE(positions.ok());
  for (PositionGame g; (*positions)->next(g);) out.positions.push_back(g);
  EXPECT_TRUE((*positions)->status().ok()) << (*positions)->status().error().message;
  out.spilled_runs = references.spilled_runs();
  return out;
}

bool same_record(const GameRecord& a, const GameRecord& b) {
  return a.fingerprint == b.fingerprint && a.source == b.source && a.number == b.number &&
         a.offset == b.offset && a.white == b.white && a.black == b.black && a.event == b.event &&
         a.date == b.date && a.site == b.site && a.white_elo == b.white_elo && a.black_elo == b.black_elo &&
         a.outcome == b.outcome;
}

TEST(GameReferences, SpillingToTemporaryFilesChangesNothing) {
  test::TempDir tmp;
  const Collected held = collect(uint64_t(256) << 20, tmp.path().string());
  const Collected spilled = collect(16 << 10, tmp.path().string());
  EXPECT_EQ(held.spilled_runs, 0u);
  EXPECT_GT(spilled.spilled_runs, 20u);

  // One record per game, its first copy (input 0), in fingerprint order as stored.
  ASSERT_GT(held.records.size(), 1500u);
  std::set<uint64_t> fingerprints;
  for (size_t i = 0; i < held.records.size(); ++i) {
    const GameRecord& r = held.records[i];
    EXPECT_EQ(r.source, 0);
    EXPECT_TRUE(fingerprints.insert(r.fingerprint).second);
    if (i > 0) {
      EXPECT_LT(int64_t(held.records[i - 1].fingerprint), int64_t(r.fingerprint));
    }
  }
  EXPECT_FALSE(held.records.front().white.empty());
  ASSERT_EQ(spilled.records.size(), held.records.size());
  for (size_t i = 0; i < held.records.size(); ++i)
    EXPECT_TRUE(same_record(spilled.records[i], held.records[i])) << i;

  // The start position keeps four top and four recent games (at most eight, at least four).
  const size_t at_start =
      size_t(std::count_if(held.positions.begin(), held.positions.end(),
                           [](const PositionGame& g) { return g.key == 0x463b96181691fc9cull; }));
  EXPECT_GE(at_start, 4u);
  EXPECT_LE(at_start, 8u);
  ASSERT_EQ(spilled.positions.size(), held.positions.size());
  for (size_t i = 0; i < held.positions.size(); ++i) {
    const PositionGame &a = spilled.positions[i], &b = held.positions[i];
    EXPECT_TRUE(a.key == b.key && a.fingerprint == b.fingerprint && a.date == b.date && a.rating == b.rating)
        << i;
  }
  std::vector<PositionGame> again = held.positions;
  keep_top_and_recent(again);
  EXPECT_EQ(again.size(), held.positions.size()) << "the lists are reduced already";
}

}  // namespace
}  // namespace bookforge::store
