// The explorer's own parameters, as the lichess opening explorer takes them: how many moves to
// list, and the filters. Today's store keeps no speeds, rating bands or months, so a filter
// that is given is checked like lichess checks it, then listed as ignored in the answer
// (scripts written for lichess still work, and see that the filter did not apply).
#pragma once

#include <string>
#include <vector>

#include "engine/result.h"
#include "serve/query_params.h"

namespace bookforge::serve {

inline constexpr int kDefaultExplorerMoves = 12;  // lichess's default

struct ExplorerRequest {
  int max_moves = kDefaultExplorerMoves;
  std::vector<std::string> ignored;  // names of the filter parameters given, in a fixed order
};

// Errors name the parameter and the value.
Result<ExplorerRequest> explorer_request_from_query(const QueryParams& params);

}  // namespace bookforge::serve
