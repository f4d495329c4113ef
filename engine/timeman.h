// How long to think: an optimum time (stop after an iteration past it) and a maximum (abort
// the search in the middle of an iteration), from the UCI clock or a fixed move time.
#pragma once

#include <cstdint>

#include "chess/types.h"

namespace bookforge::engine {

struct ClockLimits {
  int64_t time_ms[2] = {0, 0};  // remaining time by Color; both 0 = no clock
  int64_t inc_ms[2] = {0, 0};
  int movestogo = 0;        // 0 = sudden death (with increments)
  int64_t movetime_ms = 0;  // fixed time per move; overrides the clock
};

struct TimeBudget {
  int64_t optimum_ms = 0;  // 0 = no time limit
  int64_t maximum_ms = 0;
};

// `overhead_ms` is kept in reserve per move for communication lag.
TimeBudget allocate_time(const ClockLimits& clock, chess::Color us, int game_ply, int64_t overhead_ms);

// Scales the optimum after an iteration: more time while the best move keeps changing or
// the score falls, less once the best move has been stable for several iterations.
double time_scale(int best_move_changes, int stable_iterations, int score_drop_cp);

}  // namespace bookforge::engine
