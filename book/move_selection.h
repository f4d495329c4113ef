// Applies the selection rules to one position at a time (the tally's entries of one key) and
// counts what each rule leaves, for the build report.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "book/candidates.h"
#include "book/selection_rules.h"
#include "counts/entry.h"

namespace bookforge::book {

// Positions and entries left after a stage.
struct StageCount {
  std::string_view name;
  uint64_t positions = 0;
  uint64_t entries = 0;
};

class MoveSelector {
 public:
  // The stages, in the order they apply.
  enum Stage { kTally, kSide, kMinGames, kPopular, kDropLosing, kMinScore, kMaxScoreDrop, kStages };

  explicit MoveSelector(const SelectionRules& rules);

  // The kept moves of one position (all entries share a key, sorted by move) with their raw
  // weights; false if nothing is kept.
  bool select(std::span<const counts::TallyEntry> moves, PositionCandidates& out);

  // Most positions of a tally have one move, played once or twice: this decides those that
  // select() would keep nothing of without building a position. True if `move`, as the only
  // move of its position, keeps nothing (its stages are then counted as select() counts them);
  // false, with nothing counted, if select() must look.
  bool rejects_only_move(const counts::TallyEntry& move) {
    const chess::Color side = move.side_to_move();
    const bool side_kept = !((rules_.side == SideFilter::kWhite && side != chess::kWhite) ||
                             (rules_.side == SideFilter::kBlack && side != chess::kBlack));
    const bool games_kept = side_kept && move.games >= rules_.min_games;
    // select()'s own test, with the move's games as the position's and as the most played.
    const uint64_t games = move.games;
    const bool unpopular =
        games < rules_.min_move_games && double(games) * 100.0 < rules_.min_move_share * double(games);
    if (games_kept && !unpopular) return false;
    // A lone move is one position and one entry at each stage it passes: counted here in plain
    // counters (added to the stages when they are read), which cost a fraction of the stage
    // pairs' updates at this rate.
    ++only_moves_[kTally];
    only_moves_[kSide] += side_kept;
    only_moves_[kMinGames] += games_kept;
    return true;
  }

  std::array<StageCount, kStages> stages() const {
    std::array<StageCount, kStages> all = stages_;
    for (int stage = kTally; stage <= kMinGames; ++stage) {
      all[size_t(stage)].positions += only_moves_[stage];
      all[size_t(stage)].entries += only_moves_[stage];
    }
    return all;
  }

 private:
  void count(Stage stage, size_t entries) {
    stages_[stage].positions += entries != 0;
    stages_[stage].entries += entries;
  }
  uint64_t raw_weight(const counts::TallyEntry& move, uint64_t position_rated,
                      uint64_t position_rating_sum) const;

  SelectionRules rules_;
  std::array<StageCount, kStages> stages_;
  uint64_t only_moves_[kMinGames + 1] = {};  // positions rejects_only_move decided, by stage passed
};

// The mover's score of a move as a fraction (0 .. 1), computed as Polyglot does.
double mover_score(const counts::TallyEntry& e);

}  // namespace bookforge::book
