#include "engine/timeman.h"

#include <algorithm>

namespace bookforge::engine {

TimeBudget allocate_time(const ClockLimits& clock, chess::Color us, int game_ply, int64_t overhead_ms) {
  TimeBudget budget;
  if (clock.movetime_ms > 0) {
    budget.optimum_ms = budget.maximum_ms = std::max<int64_t>(1, clock.movetime_ms - overhead_ms);
    return budget;
  }
  const int64_t left = clock.time_ms[us];
  const int64_t inc = clock.inc_ms[us];
  if (left <= 0 && inc <= 0) return budget;

  // Moves still to play before the next time control: as given, or a guess that shrinks as
  // the game goes on (but never below 20, for the sake of long endgames).
  const int moves_left =
      clock.movestogo > 0 ? std::min(clock.movestogo, 50) : std::max(20, 45 - game_ply / 4);
  const int64_t usable = std::max<int64_t>(1, left - overhead_ms * std::min(moves_left, 10));
  int64_t optimum = usable / moves_left + inc * 3 / 4;
  // Never plan to use more than a fraction of the clock on one move.
  const int64_t cap = clock.movestogo == 1 ? usable * 8 / 10 : usable / 2;
  int64_t maximum = std::min(optimum * 5, cap);
  optimum = std::min(optimum, maximum);
  budget.optimum_ms = std::max<int64_t>(1, optimum);
  budget.maximum_ms = std::max<int64_t>(1, std::min(maximum, std::max<int64_t>(1, left - overhead_ms)));
  return budget;
}

double time_scale(int best_move_changes, int stable_iterations, int score_drop_cp) {
  double scale = 1.0;
  if (best_move_changes > 0)
    scale *= 1.0 + 0.35 * std::min(best_move_changes, 4);
  else if (stable_iterations >= 6)
    scale *= 0.55;
  else if (stable_iterations >= 3)
    scale *= 0.75;
  if (score_drop_cp > 20) scale *= 1.0 + std::min(score_drop_cp, 200) / 200.0;
  return scale;
}

}  // namespace bookforge::engine
