// A build's report as JSON (build --report): what was read, counted, kept stage by stage,
// rescored and written, with times and memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "book/build.h"
#include "json/json.h"

namespace bookforge::json {

// The report with what the command line adds to it: the files named, how the games were
// filtered (PGN) or sliced (a store), the memory budget, the time and peak memory.
struct BuildReportView {
  const book::BuildReport& build;
  const std::string& output;
  const std::vector<std::string>& inputs;
  std::string filters;  // pgn::GameFilter::describe()
  std::string slices;   // counts::SliceFilter::describe()
  bool from_store = false;
  uint64_t memory_budget = 0;
  double total_seconds = 0;
  uint64_t peak_rss_bytes = 0;
};

// {"output", "inputs", "rules", "filters", "slices", "games": {the read (json/read_json.h),
//  "duplicates": {"dropped", "kept"} (null for a store: its games were counted when added)},
//  "tally": {"threads", "memory_budget", "tmp_dir", "games", "plies", "repeats_skipped",
//  "spills", "spill_bytes", "merge_passes"}, "stages": [{"stage", "positions", "entries"}],
//  "positions", "entries" (as written), "scaled_positions", "rescore": null | {"positions",
//  "candidates", "dropped", "emptied", "proven_kept", "propagated_drops",
//  "propagation_rounds", "nodes", "seconds", "repaired": [{"fen", "move", "score", "weight"}]},
//  "seconds": {"read", "rules_and_write", "total"}, "peak_rss_bytes"}; seconds with 3 decimals.
Json to_json(const BuildReportView& report);

}  // namespace bookforge::json
