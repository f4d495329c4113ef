// Running the pipeline in tests: every accepted game collected from every worker's sink, in
// game-number order, so runs can be compared whole.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "chess/san.h"
#include "pgn/pipeline.h"
#include "pgn/recording_visitor.h"

namespace bookforge::pgn::test {

struct CollectedGame {
  uint64_t game_number = 0;
  Outcome outcome = Outcome::kUnknown;
  uint16_t white_elo = 0, black_elo = 0;
  uint16_t start_ply = 0;
  uint64_t offset_in_file = 0;
  std::vector<PlyRecord> plies;
  bool operator==(const CollectedGame& o) const;
};

struct PipelineRun {
  bool ok = false;
  std::string error;
  ReadStats stats;
  std::vector<CollectedGame> games;  // sorted by game number
};

// Reads `inputs` with default options changed by `adjust`.
PipelineRun run_pipeline(const std::vector<std::string>& inputs,
                         const std::function<void(PipelineOptions&)>& adjust = {});

// Everything but the time must agree.
void expect_same_run(const PipelineRun& run, const PipelineRun& reference, const std::string& label);

uint64_t polyglot_key_of(const std::string& fen);

}  // namespace bookforge::pgn::test
