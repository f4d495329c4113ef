// An exploration of the store (store/explore.h) in the lichess opening explorer's
// response shape, plus a "bookforge" object with what lichess has no field for.
#pragma once

#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "book/opening_names.h"
#include "chess/board.h"
#include "serve/explorer_request.h"
#include "store/explore.h"
#include "store/game_record.h"

namespace bookforge::serve {

// `white`, `draws`, `black` at the top sum every move of the position, listed or not; the
// moves are the request's first `max_moves` by games, with lichess's averageRating,
// averageOpponentRating and performance (the mover's, store/explore.h says how; null
// without rated games), and a per-move "bookforge" object: share (percent of the position's
// games), firstYear, lastYear (null when no date is known). The top "bookforge" object says
// which filter applied (store::SliceFilter::describe), and with an `arrival` (a `play` line
// was given) how the games came here: byLine, byOtherOrders, mostlyTransposed.
//
// topGames and recentGames are the store's lists for the position (all its games, whatever the
// filter; store/game_record.h), in lichess's shape: id, winner, white and black {name,
// rating}, year, month, plus a "bookforge" object with event, date and url.
struct PositionGames {
  std::vector<store::GameRecord> top, recent;
};
nlohmann::ordered_json explorer_json(const store::Exploration& exploration,
                                     const std::optional<store::Arrival>& arrival, const chess::Board& board,
                                     const book::OpeningNames& names, const ExplorerRequest& request,
                                     const PositionGames& games);

// {"eco", "name"} of the position with this key, or null when the table does not name it.
nlohmann::ordered_json opening_json(const book::OpeningNames& names, uint64_t key);

}  // namespace bookforge::serve
