// Collects, while `db add` reads, what the store keeps of its games (store/game_record.h):
// every game's record, and for every position up to a ply limit its top and recent games --
// within a fixed share of --memory, however many games are read.
//
// Each reading worker has its own buffers, kept from one input to the next:
// - the records, as bytes in a RecordRuns (store/record_runs.h), which spills them to a
//   temporary file, sorted by fingerprint, when they fill their part of the worker's share;
// - a list of PositionGame (24 bytes: one per position of a game). When it is full it is reduced
//   in place: per position, only the games of its top and recent lists stay (most positions
//   near the start are reached by many games, so this removes most of the list). If more than
//   half of it is left, the rest is spilled as a run too, sorted by (key, fingerprint).
// Reading them back merges every worker's runs and what it still holds, in the order the store
// keeps them; a position's games from all workers are reduced once more on the way.
//
// The references see every game, copies too: of a game read several times, the record kept is
// that of its first copy by (input, number in the input), whichever worker read it, so the store
// is the same for any number of threads.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "counts/tally.h"
#include "pgn/pipeline.h"
#include "store/game_record.h"
#include "store/record_runs.h"

namespace bookforge::store {

class GameReferences {
 public:
  // Positions at plies [0, plies) of each game are kept; `memory` is shared by all workers;
  // spills go to `tmp_dir`.
  GameReferences(int plies, uint64_t memory, int workers, std::string tmp_dir);
  ~GameReferences();

  // Sinks for one read of input number `input`: each records the games passing through it and
  // hands them on to inner(i).
  pgn::SinkFactory wrap(pgn::SinkFactory inner, int64_t input);
  // The same for a read of several inputs at once: a game's input is the index of its file in
  // `inputs`, the vector the read was given (pgn::ReplayedGame::file points into it).
  pgn::SinkFactory wrap(pgn::SinkFactory inner, const std::vector<std::string>& inputs);

  // After reading: the first temporary file that could not be written, if any.
  Status status() const;
  // After reading (each once): the records, by fingerprint as stored (signed order), one per
  // game; and the top and recent games of every position, by (key, fingerprint) as stored.
  // The streams borrow this object.
  std::unique_ptr<GameRecordStream> records();
  Result<std::unique_ptr<PositionGameStream>> positions();

  // Runs spilled so far, records and position lists together (for the tests).
  uint64_t spilled_runs() const;

 private:
  class Sink;
  struct Worker;
  class Records;
  class Positions;

  Worker& worker(int index);

  int plies_;
  size_t worker_memory_;
  std::string tmp_dir_;
  std::deque<std::unique_ptr<Worker>> workers_;
  std::deque<std::unique_ptr<Sink>> sinks_;
};

// The references' share of the memory budget of `tally` (whose workers are set), taken from it.
uint64_t take_references_memory(counts::TallyOptions& tally);

// Keeps, of `games` sorted by key, each key's top and recent games (no fingerprint twice per key),
// in (key, fingerprint) order as stored. Exposed for the tests.
void keep_top_and_recent(std::vector<PositionGame>& games);

}  // namespace bookforge::store
