// A position's history (store/history.h) as JSON: db explore --history --json, and the
// server's history answers.
#pragma once

#include "json/json.h"
#include "store/history.h"

namespace bookforge::json {

// A month: {"month": "YYYY-MM", "white", "draws", "black"} (counts), as lichess's history
// segments are; kCli adds "games" (with those without a result).
Json to_json(const store::MonthResults& month, Style style);

// kCli: {"months": [...], "undated"}; kApi: lichess's history, the list of months alone (the
// games with no month are not on lichess's axis either).
Json to_json(const store::History& history, Style style);

}  // namespace bookforge::json
