// The position graph: counts per (Polyglot key, move) of every accepted game, in bounded
// memory.
//
// Each pipeline worker counts into its own tables (book/tally_table.h) through its GameSink,
// so counting needs no locks. When a worker's tables reach what they may take they are spilled,
// already sorted, as a run file (book/run_file.h). They may take 32 MB at first (all workers
// together), twice that after every 4 spills, and never more than the memory budget: small
// inputs stay small, and a huge input still ends with few enough runs to merge in one pass.
// finish() k-way merges every run and every worker's sorted tables into one stream in
// (key, move) order with the counts summed. Counts are sums and first plies minima, so the
// stream does not depend on the number of workers, on which worker got which game, or on when
// anything spilled.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "book/tally_entry.h"
#include "engine/result.h"
#include "pgn/game.h"

namespace bookforge::book {

struct TallyOptions {
  uint64_t memory_budget = 256ull << 20;  // bytes for the tables of all workers together
  std::string tmp_dir = ".";              // where runs are spilled
  bool count_repeats = false;             // count a (key, move) every time a game plays it, as Polyglot does
  int workers = 1;
  // Keep the mover's rating sums (rated_games, rating_sum). Without them every entry reads 0
  // there, and the tables take 16 bytes a (key, move) instead of 24.
  bool ratings = true;
  // What the tables may take at first, all workers together (see above; tests set it small).
  uint64_t starting_table_memory = uint64_t(32) << 20;
};

struct TallyStats {
  uint64_t games = 0;            // games counted
  uint64_t plies = 0;            // plies counted
  uint64_t repeats_skipped = 0;  // plies not counted because the game had played them before
  uint64_t spills = 0;           // runs written while counting
  uint64_t spill_bytes = 0;
  uint64_t merge_passes = 0;  // extra passes when there were too many runs to merge at once
};

class Tally {
 public:
  explicit Tally(const TallyOptions& options);
  ~Tally();
  Tally(const Tally&) = delete;
  Tally& operator=(const Tally&) = delete;
  class Worker;

  // The sink of worker `index` (0 .. workers-1), for pgn::read_games.
  pgn::GameSink& sink(int index);

  // After the last game: every count in one (key, move) ordered stream. Call once; the stream
  // reads the tally's tables, so the Tally must outlive it. An error if a spill failed.
  Result<std::unique_ptr<EntryStream>> finish();

  TallyStats stats() const;

 private:
  TallyOptions options_;
  std::vector<std::unique_ptr<Worker>> workers_;
  uint64_t merge_passes_ = 0;
  uint64_t merge_spill_bytes_ = 0;
};

}  // namespace bookforge::book
