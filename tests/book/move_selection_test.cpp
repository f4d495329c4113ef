// The selection rules, one at a time: each test builds a position where exactly the rule under
// test decides, and checks both sides of its threshold.
#include "book/move_selection.h"
#include "book/polyglot/weight_scale.h"
#include "support/test_support.h"

namespace bookforge::book {
namespace {

// A move of a White-to-move position (first ply 0) with results from White's view.
counts::TallyEntry move(uint16_t m, uint32_t wins, uint32_t draws, uint32_t losses, uint32_t unknown = 0) {
  counts::TallyEntry e;
  e.key = 0xabc;
  e.move = m;
  e.white_wins = wins;
  e.draws = draws;
  e.black_wins = losses;
  e.games = wins + draws + losses + unknown;
  e.first_ply = 0;
  return e;
}

// Rules that keep everything, so a test can switch on one rule at a time.
SelectionRules permissive() {
  SelectionRules r;
  r.min_games = 0;
  r.min_move_games = 0;
  r.min_move_share = 0;
  r.drop_losing = false;
  r.max_score_drop = kRuleOff;
  r.min_score = 0;
  return r;
}

std::vector<uint16_t> kept(const SelectionRules& rules, const std::vector<counts::TallyEntry>& moves) {
  MoveSelector selector(rules);
  PositionCandidates out;
  selector.select(moves, out);
  std::vector<uint16_t> result;
  for (const Candidate& c : out.moves) result.push_back(c.stats.move);
  return result;
}

using Moves = std::vector<uint16_t>;

TEST(MoveSelection, MinGamesCountsThePositionsGamesOverAllMoves) {
  SelectionRules r = permissive();
  r.min_games = 6;
  std::vector<counts::TallyEntry> position = {move(1, 2, 1, 0), move(2, 1, 1, 0)};  // 5 games
  EXPECT_EQ(kept(r, position), Moves{});
  position.push_back(move(3, 0, 1, 0));  // 6 games
  EXPECT_EQ(kept(r, position), (Moves{1, 2, 3}));
}

TEST(MoveSelection, MoveKeptByGamesOrByShare) {
  SelectionRules r = permissive();
  r.min_move_games = 5;
  r.min_move_share = 10;
  // 100 games: move 1 has 85, move 2 has 10 (10%: kept by share), move 3 has 5 (kept by
  // games), move 4 has... none left; add a fourth with 4 of 104 (under both).
  std::vector<counts::TallyEntry> position = {move(1, 40, 25, 20), move(2, 5, 3, 2), move(3, 2, 2, 1),
                                              move(4, 2, 1, 1)};
  // Total 104 games: move 2 has 10/104 = 9.6% < 10% and 10 >= 5 games: kept by games.
  EXPECT_EQ(kept(r, position), (Moves{1, 2, 3}));
  r.min_move_games = 11;  // now move 2 (9.6%) and move 3 fail both tests
  EXPECT_EQ(kept(r, position), (Moves{1}));
  r.min_move_share = 9.5;  // move 2 passes by share again
  EXPECT_EQ(kept(r, position), (Moves{1, 2}));
}

TEST(MoveSelection, DropLosingDropsMovesThatOnlyLost) {
  SelectionRules r = permissive();
  std::vector<counts::TallyEntry> position = {move(1, 1, 0, 0), move(2, 0, 0, 3), move(3, 0, 1, 5)};
  EXPECT_EQ(kept(r, position), (Moves{1, 2, 3}));
  r.drop_losing = true;
  EXPECT_EQ(kept(r, position), (Moves{1, 3}));
  // A game without a result counts like a draw (as Polyglot counts it), so it saves a move.
  position[1] = move(2, 0, 0, 3, 1);
  EXPECT_EQ(kept(r, position), (Moves{1, 2, 3}));
}

TEST(MoveSelection, MinScoreUsesTheMoversView) {
  SelectionRules r = permissive();
  r.min_score = 50;
  std::vector<counts::TallyEntry> white_to_move = {move(1, 1, 0, 1), move(2, 0, 1, 1), move(3, 1, 1, 0)};
  EXPECT_EQ(kept(r, white_to_move), (Moves{1, 3}));  // 50%, 25%, 75%
  // The same counts in a Black-to-move position: White's wins are Black's losses.
  for (counts::TallyEntry& e : white_to_move) e.first_ply = 1;
  EXPECT_EQ(kept(r, white_to_move), (Moves{1, 2}));  // 50%, 75%, 25%
}

TEST(MoveSelection, MaxScoreDropComparesWithThePositionAverage) {
  SelectionRules r = permissive();
  r.max_score_drop = 10;
  // Average: (7 + 8 + 2) half points / (2 * 14 games) = 60.7%. Move 1: 70%, move 2: 57.1%
  // (3.6 points below), move 3: 50% (10.7 below).
  std::vector<counts::TallyEntry> position = {move(1, 3, 1, 1), move(2, 3, 2, 2), move(3, 0, 2, 0)};
  EXPECT_EQ(kept(r, position), (Moves{1, 2}));
  r.max_score_drop = 11;
  EXPECT_EQ(kept(r, position), (Moves{1, 2, 3}));
  r.max_score_drop = 3;
  EXPECT_EQ(kept(r, position), (Moves{1}));
}

TEST(MoveSelection, SideKeepsOnlyPositionsOfThatSide) {
  SelectionRules r = permissive();
  std::vector<counts::TallyEntry> position = {move(1, 1, 0, 0)};
  r.side = SideFilter::kBlack;
  EXPECT_EQ(kept(r, position), Moves{});
  r.side = SideFilter::kWhite;
  EXPECT_EQ(kept(r, position), Moves{1});
  position[0].first_ply = 17;
  EXPECT_EQ(kept(r, position), Moves{});
}

TEST(MoveSelection, WeightKinds) {
  SelectionRules r = permissive();
  std::vector<counts::TallyEntry> position = {move(1, 3, 2, 1), move(2, 0, 1, 0)};
  position[0].rated_games = 4;
  position[0].rating_sum = 4 * 2500;
  position[1].rated_games = 0;
  PositionCandidates out;
  auto weights = [&](WeightKind kind) {
    r.weight = kind;
    MoveSelector s(r);
    s.select(position, out);
    std::vector<uint64_t> w;
    for (const Candidate& c : out.moves) w.push_back(c.weight);
    return w;
  };
  EXPECT_EQ(weights(WeightKind::kGames), (std::vector<uint64_t>{6, 1}));
  EXPECT_EQ(weights(WeightKind::kScore), (std::vector<uint64_t>{8, 1}));
  EXPECT_EQ(weights(WeightKind::kUniform), (std::vector<uint64_t>{1, 1}));
  // Unrated games count at the position's average rating (2500).
  EXPECT_EQ(weights(WeightKind::kRating), (std::vector<uint64_t>{6 * 2500, 2500}));
}

TEST(MoveSelection, StagesCountWhatEachRuleLeft) {
  SelectionRules r = SelectionRules::article_defaults();
  MoveSelector selector(r);
  PositionCandidates out;
  std::vector<counts::TallyEntry> small = {move(1, 1, 0, 0)};  // fails min_games
  std::vector<counts::TallyEntry> big = {move(1, 60, 50, 40), move(2, 0, 0, 20), move(3, 1, 1, 1)};
  for (counts::TallyEntry& e : big) e.key = 0xdef;
  selector.select(small, out);
  selector.select(big, out);
  const auto& stages = selector.stages();
  EXPECT_EQ(stages[MoveSelector::kTally].positions, 2u);
  EXPECT_EQ(stages[MoveSelector::kTally].entries, 4u);
  EXPECT_EQ(stages[MoveSelector::kMinGames].positions, 1u);
  EXPECT_EQ(stages[MoveSelector::kMinGames].entries, 3u);
  // Move 3 (3 of 173 games) is neither popular by games nor by share.
  EXPECT_EQ(stages[MoveSelector::kPopular].entries, 2u);
  // Move 2 never scored.
  EXPECT_EQ(stages[MoveSelector::kDropLosing].entries, 1u);
  EXPECT_EQ(stages[MoveSelector::kMaxScoreDrop].positions, 1u);
}

TEST(MoveSelection, PolyglotPresetKeepsEveryMovePlayedThreeTimesThatScored) {
  SelectionRules r = SelectionRules::polyglot();
  std::vector<counts::TallyEntry> position = {move(1, 0, 0, 3), move(2, 0, 1, 2), move(3, 1, 1, 0),
                                              move(4, 900, 50, 50)};
  EXPECT_EQ(kept(r, position), (Moves{2, 4}));
  MoveSelector selector(r);
  PositionCandidates out;
  selector.select(position, out);
  EXPECT_EQ(out.moves[0].weight, 1u);  // 2W+D from the mover's view
  EXPECT_EQ(out.moves[1].weight, 1850u);
}

// The shortcut for a position's only move decides exactly as select() does, and counts the same
// stages, under every preset and side filter, for moves of either side and of any count.
TEST(MoveSelection, OnlyMoveShortcutAgreesWithSelect) {
  std::vector<SelectionRules> rule_sets = {SelectionRules::article_defaults(), SelectionRules::polyglot(),
                                           permissive()};
  SelectionRules shares = SelectionRules::polyglot();
  shares.min_move_share = 50;  // a lone move has all of its position's games
  rule_sets.push_back(shares);
  for (SideFilter side : {SideFilter::kBoth, SideFilter::kWhite, SideFilter::kBlack})
    for (SelectionRules r : rule_sets) {
      r.side = side;
      MoveSelector plain(r), shortcut(r);
      PositionCandidates a, b;
      for (uint32_t games = 0; games < 8; ++games)
        for (uint16_t ply = 0; ply < 2; ++ply)
          for (uint32_t wins = 0; wins <= games; ++wins) {
            counts::TallyEntry e = move(7, wins, games - wins, 0);
            e.first_ply = ply;
            const bool kept = plain.select(std::span(&e, 1), a);
            const bool rejected = shortcut.rejects_only_move(e);
            if (!rejected) {
              EXPECT_EQ(shortcut.select(std::span(&e, 1), b), kept);
            }
            EXPECT_TRUE(!rejected || !kept) << games << " " << ply << " " << wins;
          }
      for (int stage = 0; stage < MoveSelector::kStages; ++stage) {
        EXPECT_EQ(plain.stages()[size_t(stage)].positions, shortcut.stages()[size_t(stage)].positions)
            << stage;
        EXPECT_EQ(plain.stages()[size_t(stage)].entries, shortcut.stages()[size_t(stage)].entries) << stage;
      }
    }
}

TEST(WeightScale, KeepsFittingWeightsAndScalesOthersOnce) {
  EXPECT_EQ(scale_weight(0, 10), 1);
  EXPECT_EQ(scale_weight(7, 65535), 7);
  EXPECT_EQ(scale_weight(65535, 65535), 65535);
  EXPECT_EQ(scale_weight(131070, 131070), 65535);
  EXPECT_EQ(scale_weight(65535, 131070), 32767);
  EXPECT_EQ(scale_weight(1, 1ull << 40), 1);  // never 0 for a kept move
  EXPECT_EQ(scale_weight(~0ull, ~0ull), 65535);
  EXPECT_EQ(scale_weight(~0ull / 2, ~0ull), 32767);
}

TEST(SelectionRules, ValidationRejectsNonsense) {
  SelectionRules r;
  EXPECT_TRUE(r.validate().ok());
  r.min_score = 101;
  EXPECT_FALSE(r.validate().ok());
  r = SelectionRules{};
  r.max_ply = -1;
  EXPECT_FALSE(r.validate().ok());
  r = SelectionRules{};
  r.min_move_share = -5;
  EXPECT_FALSE(r.validate().ok());
  EXPECT_TRUE(rules_preset("polyglot").has_value());
  EXPECT_FALSE(rules_preset("nonsense").has_value());
  EXPECT_EQ(parse_weight_kind("rating"), WeightKind::kRating);
  EXPECT_EQ(parse_side_filter("black"), SideFilter::kBlack);
  EXPECT_FALSE(parse_side_filter("blue").has_value());
}

}  // namespace
}  // namespace bookforge::book
