#include "book/move_selection.h"

#include <algorithm>

namespace bookforge::book {

double mover_score(const counts::TallyEntry& e) {
  // Polyglot's expression, operation for operation, so that --min-score compares the same
  // doubles as `polyglot make-book -min-score`.
  return e.games == 0 ? 0.0 : (double(e.half_points()) / double(e.games)) / 2.0;
}

MoveSelector::MoveSelector(const SelectionRules& rules) : rules_(rules) {
  constexpr std::string_view kNames[kStages] = {
      "tally", "side", "min_games", "min_move_games_or_share", "drop_losing", "min_score", "max_score_drop"};
  for (int i = 0; i < kStages; ++i) stages_[size_t(i)].name = kNames[i];
}

uint64_t MoveSelector::raw_weight(const counts::TallyEntry& m, uint64_t position_rated,
                                  uint64_t position_rating_sum) const {
  switch (rules_.weight) {
    case WeightKind::kGames:
      return m.games;
    case WeightKind::kScore:
      return m.half_points();
    case WeightKind::kUniform:
      return 1;
    case WeightKind::kRating:
      // Games whose mover had no rating count at the position's average rating; a position
      // without any rated game falls back to counting games.
      if (position_rated == 0) return m.games;
      return m.rating_sum + uint64_t(m.games - m.rated_games) * (position_rating_sum / position_rated);
  }
  return m.games;
}

bool MoveSelector::select(std::span<const counts::TallyEntry> moves, PositionCandidates& out) {
  out.moves.clear();
  if (moves.empty()) return false;
  out.key = moves.front().key;
  const size_t n = moves.size();
  // Most positions of a tally were reached once or twice and fall at the first rule that looks
  // at their counts: the stages are counted inline, and the per-move rules only run for
  // positions that pass the position's own.
  count(kTally, n);

  chess::Color side = moves.front().side_to_move();
  if ((rules_.side == SideFilter::kWhite && side != chess::kWhite) ||
      (rules_.side == SideFilter::kBlack && side != chess::kBlack))
    return false;
  count(kSide, n);

  uint64_t games = 0, most = 0;
  for (const counts::TallyEntry& m : moves) {
    games += m.games;
    most = std::max<uint64_t>(most, m.games);
  }
  if (games < rules_.min_games) return false;
  count(kMinGames, n);
  // No move is popular: none was played min_move_games times, and the most played one does
  // not reach the share (nor then does any other).
  if (most < rules_.min_move_games && double(most) * 100.0 < rules_.min_move_share * double(games))
    return false;

  uint64_t half_points = 0, rated = 0, rating_sum = 0;
  for (const counts::TallyEntry& m : moves) {
    half_points += m.half_points();
    rated += m.rated_games;
    rating_sum += m.rating_sum;
  }
  const double average_score = games == 0 ? 0.0 : double(half_points) / double(2 * games);
  size_t survivors[kStages] = {};
  for (const counts::TallyEntry& m : moves) {
    bool popular =
        m.games >= rules_.min_move_games || double(m.games) * 100.0 >= rules_.min_move_share * double(games);
    if (!popular) continue;
    ++survivors[kPopular];
    if (rules_.drop_losing && m.half_points() == 0) continue;
    ++survivors[kDropLosing];
    if (mover_score(m) < rules_.min_score / 100.0) continue;
    ++survivors[kMinScore];
    if ((average_score - double(m.half_points()) / double(2 * uint64_t(m.games))) * 100.0 >
        rules_.max_score_drop)
      continue;
    ++survivors[kMaxScoreDrop];
    out.moves.push_back(Candidate{m, std::max<uint64_t>(raw_weight(m, rated, rating_sum), 1)});
  }
  for (int stage = kPopular; stage <= kMaxScoreDrop; ++stage) count(Stage(stage), survivors[stage]);
  return !out.moves.empty();
}

}  // namespace bookforge::book
