// A position's games month by month: how an opening's results move over time (the lichess
// explorer's history), over the games a slice filter keeps (counts/slice.h).
//
// The months run without a gap from the filter's since (or the first month with games) to its
// until (or the last month with games); months with no game are listed with zeros, so that a
// chart's axis is the list. A position's games are those that played a move from it (as
// explore counts them). Games whose date gives no month (no date, or a year alone) have no
// place on the axis and are counted apart.
#pragma once

#include <cstdint>
#include <vector>

#include "base/result.h"
#include "chess/board.h"
#include "counts/slice.h"
#include "store/store.h"

namespace bookforge::store {

struct MonthResults {
  int year = 0;
  int month = 0;  // 1..12
  uint64_t white = 0, draws = 0, black = 0;
  uint64_t games = 0;  // with those without a result
};

struct History {
  std::vector<MonthResults> months;  // consecutive, oldest first
  uint64_t undated = 0;              // games whose date gives no month
};

Result<History> position_history(Store& store, const chess::Board& board,
                                 const counts::SliceFilter& filter = {});

}  // namespace bookforge::store
