// Applies the selection rules to one position at a time (the tally's entries of one key) and
// counts what each rule leaves, for the build report.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "book/candidates.h"
#include "book/selection_rules.h"
#include "book/tally_entry.h"

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
  bool select(std::span<const TallyEntry> moves, PositionCandidates& out);

  const std::array<StageCount, kStages>& stages() const { return stages_; }

 private:
  void count(Stage stage, size_t entries) {
    stages_[stage].positions += entries != 0;
    stages_[stage].entries += entries;
  }
  uint64_t raw_weight(const TallyEntry& move, uint64_t position_rated, uint64_t position_rating_sum) const;

  SelectionRules rules_;
  std::array<StageCount, kStages> stages_;
};

// The mover's score of a move as a fraction (0 .. 1), computed as Polyglot does.
double mover_score(const TallyEntry& e);

}  // namespace bookforge::book
