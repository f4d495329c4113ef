// The position graph: counts per (Polyglot key, move) of every accepted game, in bounded
// memory.
//
// The key space is cut into partitions, in key order, two per worker (fewer with many workers
// or a small budget, see below):
// partition i of P holds the keys k with k * P / 2^64 == i (Zobrist keys are uniform, so the
// partitions are even). Each partition has its own tables (counts/open_table.h) and spilled
// runs, and every count of a key lives in its partition only.
//
//   worker 0 --plies--+--> partition 0 (keys 0 .. 2^62)        tables + runs --> stream 0
//                     +--> partition 1 (keys 2^62 .. 2^63)     tables + runs --> stream 1
//   worker 1 --plies--+--> partition 2 (keys 2^63 .. 3*2^62)   tables + runs --> stream 2
//                     +--> partition 3 (keys 3*2^62 .. 2^64)   tables + runs --> stream 3
//
// (every worker hands plies to every partition). Two per worker because the final merges and
// the rules run a partition per thread: with more partitions than cores, one that happens to take
// longer leaves a core idle for a shorter while at the end.
//
// A worker (the GameSink of one pipeline thread) sorts the plies of its games by partition and
// hands them over a batch at a time; whichever worker hands a batch over counts it, holding
// that partition's lock, and a worker that finds the partition busy keeps collecting and tries
// again later. When a partition's tables reach what they may take they are spilled, already
// sorted, as a run file (counts/run_file.h). They may take 32 MB at first (all partitions
// together), twice that after every 4 spills, and never more than the memory budget: small
// inputs stay small, and a huge input still ends with few enough runs to merge in one pass.
//
// The budget covers the whole tally, whatever the number of workers: a quarter of it (at most
// 8 MiB) for the plies the workers hold on their way to the partitions, the rest for the
// tables. Every worker holds plies for every partition, so with many workers there are fewer
// partitions (at most 512 worker-partition pairs), and a small budget gets no more partitions
// than it has room for at their smallest (8 KiB each); the batches shrink to fit.
//
// finish_partitions() k-way merges each partition's runs and tables into one stream in (key, move)
// order with the counts summed; the partitions' streams follow each other in key order, so the
// final merge and whatever reads it (the selection rules) can run on every core at once.
// Counts are sums and first plies minima, so the streams do not depend on the number of
// workers, on which worker got which game, or on when anything spilled.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "counts/entry.h"
#include "pgn/game.h"

namespace bookforge::counts {

// What the tables of a tally may take at first, all workers together (see above).
inline constexpr uint64_t kDefaultStartingTableMemory = uint64_t(32) << 20;

struct TallyOptions {
  uint64_t memory_budget = 256ull << 20;  // bytes for the whole tally (tables and held plies)
  std::string tmp_dir = ".";              // where runs are spilled
  bool count_repeats = false;             // count a (key, move) every time a game plays it, as Polyglot does
  int workers = 1;                        // sinks, and partitions of the key space
  // Keep the mover's rating sums (rated_games, rating_sum). Without them every entry reads 0
  // there, and the tables take 16 bytes a (key, move) instead of 24.
  bool ratings = true;
  // Keep the opponent's rating sums too (the store shows the opponents' average and the
  // performance). A game with a rated opponent then goes to the wide table.
  bool opponent_ratings = false;
  // Splits the counts by slice of the games (the store's speed, rating band and month:
  // counts/slice.h): each game's entries go under slice_of(game). Unset: slice 0.
  std::function<uint32_t(const pgn::ReplayedGame&)> slice_of = {};
  // What the tables may take at first, all workers together (see above; tests set it small).
  uint64_t starting_table_memory = kDefaultStartingTableMemory;
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
  // An error if the tables cannot be had (a --memory larger than the machine can give).
  static Result<std::unique_ptr<Tally>> create(const TallyOptions& options);
  ~Tally();
  Tally(const Tally&) = delete;
  Tally& operator=(const Tally&) = delete;
  class Worker;

  class Partition;
  struct Ply;

  // The sink of worker `index` (0 .. workers-1), for pgn::read_games. Different sinks may be
  // called from different threads at once; one sink from one thread at a time.
  pgn::GameSink& sink(int index);

  // After the last game (no sink may be called any more): every count, one (key, move) ordered
  // stream per partition, the partitions in key order, so that their concatenation is the whole
  // tally in order. Call once (or finish() once); the streams read the tally's tables, so the
  // Tally must outlive them. Different streams may be read on different threads. An error if a
  // spill failed.
  Result<std::vector<std::unique_ptr<EntryStream>>> finish_partitions();
  // The same as one stream.
  Result<std::unique_ptr<EntryStream>> finish();
  // The threads the finishing may use (the partitions' merges, a count's writing of its files):
  // the workers', and at least two, since the reader's core is free once the input is read.
  int finishing_threads() const { return std::max(options_.workers, 2); }

  TallyStats stats() const;

 private:
  // Lays the tally out (partitions, batches); create() then makes the tables.
  explicit Tally(const TallyOptions& options);
  Result<std::unique_ptr<EntryStream>> merge_partition(Partition& partition);

  TallyOptions options_;
  size_t batch_ = 0;           // plies a worker hands to a partition at a time
  uint64_t table_memory_ = 0;  // the budget less the held plies: for all partitions' tables
  std::vector<std::unique_ptr<Partition>> partitions_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::atomic<uint64_t> merge_passes_{0};  // partitions prepare their merges on several threads
  std::atomic<uint64_t> merge_spill_bytes_{0};
};

}  // namespace bookforge::counts
