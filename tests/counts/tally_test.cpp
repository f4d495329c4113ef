// The tally: counts per (key, move), repeats, results, ratings, the compact/wide split, spills
// and workers. Games here are synthetic ply records (any key, any move): the tally does not
// look at chess.
#include <map>
#include <random>
#include <thread>
#include <tuple>

#include "counts/open_table.h"
#include "counts/tally.h"
#include "support/test_support.h"

namespace bookforge::counts {
namespace {

using pgn::Outcome;
using pgn::PlyRecord;
using pgn::ReplayedGame;

struct Game {
  std::vector<PlyRecord> plies;
  Outcome outcome = Outcome::kDraw;
  uint16_t white_elo = 0, black_elo = 0;
  uint16_t start_ply = 0;

  ReplayedGame replayed() const {
    ReplayedGame g;
    g.outcome = outcome;
    g.white_elo = white_elo;
    g.black_elo = black_elo;
    g.start_ply = start_ply;
    g.plies = plies;
    return g;
  }
};

// A tally as every caller makes one; the test stops if its tables cannot be had.
std::unique_ptr<Tally> make_tally(const TallyOptions& options) {
  Result<std::unique_ptr<Tally>> tally = Tally::create(options);
  if (!tally) ADD_FAILURE() << tally.error().message;
  return tally ? std::move(*tally) : nullptr;
}

Game line(std::initializer_list<std::pair<uint64_t, uint16_t>> key_moves, Outcome outcome) {
  Game g;
  g.outcome = outcome;
  uint16_t ply = 0;
  for (auto [key, move] : key_moves) g.plies.push_back({key, move, ply++});
  return g;
}

std::vector<TallyEntry> drain(Tally& tally) {
  auto stream = tally.finish();
  EXPECT_TRUE(stream.ok()) << stream.error().message;
  std::vector<TallyEntry> out;
  if (!stream.ok()) return out;
  TallyEntry e;
  while ((*stream)->next(e)) out.push_back(e);
  EXPECT_TRUE((*stream)->status().ok());
  return out;
}

// The ordered table: always sorted, lookups find what was inserted, growth in place keeps
// both, and an insertion that would run off the array's end is refused, not wrapped.
TEST(OpenTable, StaysSortedThroughGrowth) {
  auto made = OpenTable<CompactSlot>::create(64);
  ASSERT_TRUE(made.ok());
  OpenTable<CompactSlot>& table = *made;
  std::map<std::pair<uint64_t, uint16_t>, uint16_t> reference;
  std::mt19937_64 rng(17);
  for (int i = 0; i < 200000; ++i) {
    // Few keys with many moves and many keys with one, like a real tally.
    uint64_t key = i % 3 ? rng() : (rng() % 50) * 0x0123456789abcdefULL;
    uint16_t move = uint16_t(1 + rng() % (i % 3 ? 3 : 40));
    if (table.over_load()) {
      ASSERT_TRUE(table.resize(table.capacity() + table.capacity() / 2));
    }
    CompactSlot* slot = table.find_or_insert(key, move);
    if (!slot) {
      ASSERT_TRUE(table.resize(table.capacity() * 2));
      slot = table.find_or_insert(key, move);
    }
    ASSERT_NE(slot, nullptr);
    ++slot->draws;
    ++reference[{key, move}];
  }
  ASSERT_EQ(table.size(), reference.size());
  auto expected = reference.begin();
  for (const CompactSlot* s = table.begin(); s != table.end(); ++s) {
    if (s->move == 0) continue;
    ASSERT_NE(expected, reference.end());
    ASSERT_EQ(std::make_pair(s->key, s->move), expected->first);
    ASSERT_EQ(s->draws, expected->second);
    ++expected;
  }
  EXPECT_EQ(expected, reference.end());
  EXPECT_TRUE(table.is_ok());
}

// is_ok() sees each broken invariant: two entries out of order, an entry before its home (a
// gap between it and its home), and a size that does not match the used slots.
TEST(OpenTable, IsOkSeesEveryBrokenInvariant) {
  auto made = OpenTable<CompactSlot>::create(64);
  ASSERT_TRUE(made.ok());
  OpenTable<CompactSlot>& table = *made;
  for (uint64_t i = 1; i <= 20; ++i) ASSERT_NE(table.find_or_insert(i * 0x0b00000000000000ULL, 1), nullptr);
  ASSERT_TRUE(table.is_ok());
  CompactSlot* slots = table.drain_begin();
  std::vector<size_t> used;
  for (size_t i = 0; slots + i != table.drain_end(); ++i)
    if (slots[i].move != 0) used.push_back(i);

  std::swap(slots[used[3]].key, slots[used[4]].key);  // out of order
  EXPECT_FALSE(table.is_ok());
  std::swap(slots[used[3]].key, slots[used[4]].key);
  ASSERT_TRUE(table.is_ok());

  const CompactSlot last = slots[used.back()];  // moved far before its home
  slots[used.back()].move = 0;
  ASSERT_FALSE(table.is_ok());  // the size no longer matches
  slots[0] = last;              // the size matches again, but the entry is before its home
  EXPECT_FALSE(table.is_ok());
}

// Memory the machine cannot give is an error for the caller, not an exception.
TEST(OpenTable, AnImpossibleSizeIsAnError) {
  auto table = OpenTable<CompactSlot>::create(size_t(1) << 50);
  ASSERT_FALSE(table.ok());
  EXPECT_NE(table.error().message.find("--memory"), std::string::npos) << table.error().message;
}

TEST(OpenTable, RefusesToRunOffTheEnd) {
  auto made = OpenTable<CompactSlot>::create(16);
  ASSERT_TRUE(made.ok());
  OpenTable<CompactSlot>& table = *made;
  int inserted = 0;
  // The largest keys all share the last home: the cluster runs into the slack and stops there.
  while (table.find_or_insert(~0ull, uint16_t(1 + inserted))) ++inserted;
  EXPECT_GT(inserted, 16);
  EXPECT_EQ(table.size(), size_t(inserted));
  EXPECT_TRUE(table.resize(64));
  EXPECT_NE(table.find_or_insert(~0ull, uint16_t(1 + inserted)), nullptr);
}

TEST(Tally, CountsResultsRatingsAndFirstPly) {
  test::TempDir tmp;
  auto made = make_tally({.memory_budget = 1 << 20, .tmp_dir = tmp.path().string()});
  Tally& tally = *made;
  Game a = line({{100, 0x31c}, {200, 0x6e4}}, Outcome::kWhiteWins);
  a.white_elo = 2500;
  a.black_elo = 2400;
  Game b = line({{100, 0x31c}, {300, 0x7ac}}, Outcome::kBlackWins);
  b.white_elo = 2300;  // black unrated
  Game c = line({{100, 0x31c}}, Outcome::kUnknown);
  for (const Game* g : {&a, &b, &c}) tally.sink(0).on_game(g->replayed());

  std::vector<TallyEntry> entries = drain(tally);
  ASSERT_EQ(entries.size(), 3u);
  const TallyEntry& root = entries[0];
  EXPECT_EQ(root.key, 100u);
  EXPECT_EQ(root.move, 0x31c);
  EXPECT_EQ(root.games, 3u);
  EXPECT_EQ(root.white_wins, 1u);
  EXPECT_EQ(root.black_wins, 1u);
  EXPECT_EQ(root.draws, 0u);
  EXPECT_EQ(root.unknown_results(), 1u);
  EXPECT_EQ(root.rated_games, 2u);
  EXPECT_EQ(root.rating_sum, 4800u);
  EXPECT_EQ(root.first_ply, 0);
  EXPECT_EQ(root.side_to_move(), chess::kWhite);
  // White won: for the mover (White) 1 win, 1 loss, and "*" counts as a draw in half points.
  EXPECT_EQ(root.half_points(), 3u);

  EXPECT_EQ(entries[1].key, 200u);
  EXPECT_EQ(entries[1].rated_games, 1u);
  EXPECT_EQ(entries[1].rating_sum, 2400u);
  EXPECT_EQ(entries[1].first_ply, 1);
  EXPECT_EQ(entries[1].side_to_move(), chess::kBlack);
  EXPECT_EQ(entries[1].half_points(), 0u);  // Black lost
  EXPECT_EQ(entries[2].key, 300u);
  EXPECT_EQ(entries[2].rated_games, 0u);
  EXPECT_EQ(entries[2].half_points(), 2u);  // Black won
}

TEST(Tally, RepeatsCountOnceUnlessAsked) {
  Game g = line({{7, 1}, {8, 2}, {7, 1}, {8, 2}, {7, 3}}, Outcome::kDraw);
  for (bool count_repeats : {false, true}) {
    test::TempDir tmp;
    auto made = make_tally(
        {.memory_budget = 1 << 20, .tmp_dir = tmp.path().string(), .count_repeats = count_repeats});
    Tally& tally = *made;
    tally.sink(0).on_game(g.replayed());
    tally.sink(0).on_game(g.replayed());
    std::vector<TallyEntry> entries = drain(tally);
    ASSERT_EQ(entries.size(), 3u);
    EXPECT_EQ(entries[0].games, count_repeats ? 4u : 2u) << count_repeats;  // (7, 1)
    EXPECT_EQ(entries[1].games, 2u);                                        // (7, 3)
    EXPECT_EQ(entries[2].games, count_repeats ? 4u : 2u);                   // (8, 2)
    EXPECT_EQ(tally.stats().repeats_skipped, count_repeats ? 0u : 4u);
  }
}

TEST(Tally, StartPlyGivesTheSideToMove) {
  test::TempDir tmp;
  auto made = make_tally({.memory_budget = 1 << 20, .tmp_dir = tmp.path().string()});
  Tally& tally = *made;
  Game g = line({{5, 1}, {6, 2}}, Outcome::kWhiteWins);
  g.start_ply = 41;  // a FEN game with Black to move at move 21
  g.white_elo = 2000;
  g.black_elo = 1000;
  tally.sink(0).on_game(g.replayed());
  std::vector<TallyEntry> entries = drain(tally);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].first_ply, 41);
  EXPECT_EQ(entries[0].side_to_move(), chess::kBlack);
  EXPECT_EQ(entries[0].rating_sum, 1000u);  // the mover is Black
  EXPECT_EQ(entries[1].side_to_move(), chess::kWhite);
}

TEST(Tally, CountsPastSixteenBitsGoToWideEntries) {
  test::TempDir tmp;
  auto made = make_tally({.memory_budget = 1 << 20, .tmp_dir = tmp.path().string()});
  Tally& tally = *made;
  Game g = line({{42, 9}}, Outcome::kWhiteWins);
  g.white_elo = 65000;  // the 32-bit rating sum of the compact slot overflows after ~66000 games
  const uint32_t kGames = 70000;
  for (uint32_t i = 0; i < kGames; ++i) tally.sink(0).on_game(g.replayed());
  std::vector<TallyEntry> entries = drain(tally);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].games, kGames);
  EXPECT_EQ(entries[0].white_wins, kGames);
  EXPECT_EQ(entries[0].rated_games, kGames);
  EXPECT_EQ(entries[0].rating_sum, uint64_t(kGames) * 65000);
}

// Without ratings the compact slot has 8-bit counters: the games past 255 of one result go to
// the wide table, and the two halves add up again in the output.
TEST(Tally, CountsPastEightBitsWithoutRatingsGoToWideEntries) {
  test::TempDir tmp;
  auto made = make_tally({.memory_budget = 1 << 20, .tmp_dir = tmp.path().string(), .ratings = false});
  Tally& tally = *made;
  const uint32_t kWins = 1000, kDraws = 300, kLosses = 7, kUnknown = 2;
  auto play = [&](Outcome outcome, uint32_t times, uint16_t elo) {
    Game g = line({{42, 9}, {43, 10}}, outcome);
    g.white_elo = g.black_elo = elo;
    g.start_ply = 3;
    for (uint32_t i = 0; i < times; ++i) tally.sink(0).on_game(g.replayed());
  };
  play(Outcome::kWhiteWins, kWins, 2000);
  play(Outcome::kDraw, kDraws, 0);
  play(Outcome::kBlackWins, kLosses, 2100);
  play(Outcome::kUnknown, kUnknown, 2200);
  std::vector<TallyEntry> entries = drain(tally);
  ASSERT_EQ(entries.size(), 2u);
  for (const TallyEntry& e : entries) {
    EXPECT_EQ(e.games, kWins + kDraws + kLosses + kUnknown);
    EXPECT_EQ(e.white_wins, kWins);
    EXPECT_EQ(e.draws, kDraws);
    EXPECT_EQ(e.black_wins, kLosses);
    EXPECT_EQ(e.unknown_results(), kUnknown);
    EXPECT_EQ(e.rated_games, 0u);
    EXPECT_EQ(e.rating_sum, 0u);
  }
  EXPECT_EQ(entries[0].first_ply, 3);
  EXPECT_EQ(entries[0].side_to_move(), chess::kBlack);
  EXPECT_EQ(entries[1].first_ply, 4);
}

// Many random games: the tally must equal a plain std::map count, whatever the number of
// workers and however small the memory budget (forcing spills and multi-pass merges).
std::vector<Game> random_games(int count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Game> games;
  for (int i = 0; i < count; ++i) {
    Game g;
    g.outcome = Outcome(rng() % 4);
    g.white_elo = rng() % 3 ? uint16_t(1500 + rng() % 1200) : 0;
    g.black_elo = rng() % 3 ? uint16_t(1500 + rng() % 1200) : 0;
    int length = 1 + int(rng() % 40);
    for (int p = 0; p < length; ++p) {
      // Early plies share few keys (transpositions and popular lines), later ones spread out.
      uint64_t key = p < 6 ? rng() % (3 * (p + 1)) : (uint64_t(rng()) << 32 | rng());
      key = key * 0x9e3779b97f4a7c15ULL + uint64_t(p & 1);
      g.plies.push_back({key, uint16_t(1 + rng() % (p < 6 ? 4 : 4000)), uint16_t(p)});
    }
    games.push_back(std::move(g));
  }
  return games;
}

std::map<std::pair<uint64_t, uint16_t>, TallyEntry> reference_count(const std::vector<Game>& games) {
  std::map<std::pair<uint64_t, uint16_t>, TallyEntry> counts;
  for (const Game& g : games) {
    std::set<std::pair<uint64_t, uint16_t>> seen;
    for (const PlyRecord& p : g.plies) {
      if (!seen.insert({p.key, p.move}).second) continue;
      TallyEntry& e = counts[{p.key, p.move}];
      e.key = p.key;
      e.move = p.move;
      e.games++;
      if (g.outcome == Outcome::kWhiteWins) e.white_wins++;
      if (g.outcome == Outcome::kDraw) e.draws++;
      if (g.outcome == Outcome::kBlackWins) e.black_wins++;
      uint16_t elo = (p.ply & 1) ? g.black_elo : g.white_elo;
      if (elo) e.rated_games++, e.rating_sum += elo;
      e.first_ply = std::min<uint16_t>(e.first_ply, p.ply);
    }
  }
  return counts;
}

TEST(Tally, MatchesReferenceForAnyWorkersAndBudget) {
  std::vector<Game> games = random_games(3000, 1234);
  auto reference = reference_count(games);
  struct Setup {
    int workers;
    uint64_t budget;
  };
  for (bool ratings : {true, false})
    for (Setup setup : {Setup{1, 64 << 20}, Setup{3, 64 << 20}, Setup{1, 16 << 10}, Setup{4, 8 << 10}}) {
      test::TempDir tmp;
      auto made = make_tally({.memory_budget = setup.budget,
                              .tmp_dir = tmp.path().string(),
                              .workers = setup.workers,
                              .ratings = ratings});
      Tally& tally = *made;
      for (size_t i = 0; i < games.size(); ++i)
        tally.sink(int(i * 7 % size_t(setup.workers))).on_game(games[i].replayed());
      std::vector<TallyEntry> entries = drain(tally);
      ASSERT_EQ(entries.size(), reference.size()) << setup.workers << " " << setup.budget;
      size_t i = 0;
      for (auto [slot, expected] : reference) {
        // Without ratings (the 16-byte slots) every entry reads no rated games.
        if (!ratings) expected.rated_games = 0, expected.rating_sum = 0;
        ASSERT_EQ(entries[i], expected) << "entry " << i << " workers " << setup.workers << " budget "
                                        << setup.budget << " ratings " << ratings;
        ++i;
      }
      if (setup.budget < (1 << 20)) {
        EXPECT_GT(tally.stats().spills, 0u);
      } else {
        EXPECT_EQ(tally.stats().spills, 0u);
      }
      // Spilled runs are unlinked temporary files: nothing is left in the folder.
      EXPECT_TRUE(std::filesystem::is_empty(tmp.path()));
    }
}

// Workers counting on threads of their own at once, into partitions other workers count into
// too, with a budget small enough to spill: each part holds its own key range, in order, and
// together they are the reference count.
TEST(Tally, PartsFromConcurrentWorkersCoverTheirKeyRanges) {
  std::vector<Game> games = random_games(8000, 777);
  auto reference = reference_count(games);
  for (uint64_t budget : {uint64_t(64) << 20, uint64_t(64) << 10}) {
    test::TempDir tmp;
    const int workers = 3;
    auto made = make_tally({.memory_budget = budget, .tmp_dir = tmp.path().string(), .workers = workers});
    Tally& tally = *made;
    {
      std::vector<std::jthread> threads;
      for (int w = 0; w < workers; ++w)
        threads.emplace_back([&, w] {
          for (size_t i = size_t(w); i < games.size(); i += workers)
            tally.sink(w).on_game(games[i].replayed());
        });
    }
    auto parts = tally.finish_partitions();
    ASSERT_TRUE(parts.ok()) << parts.error().message;
    // Two key ranges per worker, so that the final merge and the rules, which run a part per
    // thread, come out even.
    ASSERT_EQ(parts->size(), size_t(2 * workers));
    const uint64_t part_count = parts->size();
    std::vector<TallyEntry> all;
    for (size_t p = 0; p < parts->size(); ++p) {
      TallyEntry e;
      while ((*parts)[p]->next(e)) {
        // Part p holds the keys k with k * parts / 2^64 == p.
        ASSERT_EQ(size_t((static_cast<unsigned __int128>(e.key) * part_count) >> 64), p);
        all.push_back(e);
      }
      ASSERT_TRUE((*parts)[p]->status().ok());
    }
    ASSERT_EQ(all.size(), reference.size()) << budget;
    size_t i = 0;
    for (const auto& [slot, expected] : reference) ASSERT_EQ(all[i++], expected) << budget;
    EXPECT_EQ(tally.stats().games, games.size());
    if (budget < (1 << 20)) {
      EXPECT_GT(tally.stats().spills, 0u);
    }
  }
}

TEST(Tally, ManyRunsMergeInSeveralPasses) {
  std::vector<Game> games = random_games(6000, 99);
  auto reference = reference_count(games);
  test::TempDir tmp;
  auto made = make_tally({.memory_budget = 2 << 10, .tmp_dir = tmp.path().string()});
  Tally& tally = *made;
  for (const Game& g : games) tally.sink(0).on_game(g.replayed());
  std::vector<TallyEntry> entries = drain(tally);
  EXPECT_GT(tally.stats().merge_passes, 0u);
  ASSERT_EQ(entries.size(), reference.size());
  size_t i = 0;
  for (const auto& [slot, expected] : reference) ASSERT_EQ(entries[i++], expected);
}

// The tables start small and double after every 4 spills: with room to grow, the same games
// spill far less often than when held at the starting size, and the counts are the same.
TEST(Tally, TablesGrowAfterSpillsUpToTheBudget) {
  std::vector<Game> games = random_games(6000, 4242);
  auto reference = reference_count(games);
  uint64_t spills[2] = {0, 0};
  for (int capped = 0; capped < 2; ++capped) {
    test::TempDir tmp;
    const uint64_t start = 8 << 10;
    auto made = make_tally({.memory_budget = capped ? start : uint64_t(64) << 20,
                            .tmp_dir = tmp.path().string(),
                            .starting_table_memory = start});
    Tally& tally = *made;
    for (const Game& g : games) tally.sink(0).on_game(g.replayed());
    std::vector<TallyEntry> entries = drain(tally);
    ASSERT_EQ(entries.size(), reference.size());
    size_t i = 0;
    for (const auto& [slot, expected] : reference) ASSERT_EQ(entries[i++], expected);
    spills[capped] = tally.stats().spills;
  }
  // Held at 8 KB the tables spill every few hundred entries; growing, they double 4 spills at a
  // time: 8, 16, 32, 64 KB ... and the run count grows with the log of the input.
  EXPECT_GT(spills[1], 100u);
  EXPECT_GT(spills[0], 4u);
  EXPECT_LT(spills[0] * 4, spills[1]) << spills[0] << " " << spills[1];
}

TEST(Tally, SpillIntoMissingFolderIsAnError) {
  auto made = make_tally({.memory_budget = 2 << 10, .tmp_dir = "/nonexistent/bookforge-tmp"});
  Tally& tally = *made;
  for (const Game& g : random_games(500, 5)) tally.sink(0).on_game(g.replayed());
  auto stream = tally.finish();
  ASSERT_FALSE(stream.ok());
  EXPECT_NE(stream.error().message.find("/nonexistent/bookforge-tmp"), std::string::npos)
      << stream.error().message;
}

// The store's tally: every game's entries under its slice, the opponents' ratings kept, in
// (key, move, slice) order; the same counts whether everything stays in memory or spills at
// every turn, and with one or three workers.
TEST(Tally, SlicesSplitTheCountsAndSurviveSpills) {
  std::mt19937_64 rng(5);
  std::vector<Game> games;
  // A few positions every game passes through (their keys anywhere in the key space, so in
  // every partition), each with many (move, slice) entries, then one of its own.
  std::vector<uint64_t> common(40);
  for (uint64_t& key : common) key = rng();
  for (int i = 0; i < 3000; ++i) {
    Game g = line({{common[rng() % common.size()], uint16_t(1 + rng() % 3)}, {uint64_t(rng()), 7}},
                  Outcome(rng() % 4));
    g.white_elo = uint16_t(rng() % 3 ? 1500 + rng() % 1000 : 0);
    g.black_elo = uint16_t(rng() % 3 ? 1500 + rng() % 1000 : 0);
    g.start_ply = uint16_t(rng() % 2);
    games.push_back(g);
  }
  // The slice: a function of the game (here its Elos), as the store's is of its tags.
  auto slice_of = [](const ReplayedGame& g) { return uint32_t(g.white_elo / 500 + 8 * (g.black_elo / 500)); };
  std::map<std::tuple<uint64_t, uint16_t, uint32_t>, TallyEntry> expected;
  for (const Game& g : games) {
    const ReplayedGame r = g.replayed();
    for (const PlyRecord& p : g.plies) {
      const bool black = (g.start_ply + p.ply) & 1;
      GamePly one{g.outcome, uint16_t(g.start_ply + p.ply), black ? g.black_elo : g.white_elo,
                  black ? g.white_elo : g.black_elo, slice_of(r)};
      TallyEntry& e = expected[{p.key, p.move, one.slice}];
      TallyEntry add = TallyEntry::of_game(one);
      add.key = p.key, add.move = p.move;
      if (e.games == 0)
        e = add;
      else
        e.add(add);
    }
  }
  for (const auto& [workers, memory] : {std::pair{1, uint64_t(64) << 20}, std::pair{1, uint64_t(64) << 10},
                                        std::pair{3, uint64_t(64) << 10}}) {
    SCOPED_TRACE("workers " + std::to_string(workers) + ", memory " + std::to_string(memory));
    test::TempDir tmp;
    auto tally = make_tally({.memory_budget = memory,
                             .tmp_dir = tmp.path().string(),
                             .workers = workers,
                             .opponent_ratings = true,
                             .slice_of = slice_of,
                             .starting_table_memory = memory});
    for (size_t i = 0; i < games.size(); ++i)
      tally->sink(int(i % size_t(workers))).on_game(games[i].replayed());
    for (int w = 0; w < workers; ++w) tally->sink(w).on_end();
    if (memory < (uint64_t(1) << 20)) {
      EXPECT_GT(tally->stats().spills, 0u);
    }
    std::vector<TallyEntry> entries = drain(*tally);
    ASSERT_EQ(entries.size(), expected.size());
    size_t i = 0;
    for (const auto& [k, e] : expected) EXPECT_EQ(entries[i++], e) << std::get<0>(k) << " " << std::get<2>(k);
  }
}

}  // namespace
}  // namespace bookforge::counts
