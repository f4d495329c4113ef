// What a caller asks of the reading pipeline (pgn/pipeline.h): the inputs, the threads, the
// filters, the replay depth, the progress reports. A header of its own because the replay of
// each game (pgn/replay.h) reads the same options, and the pipeline runs the replay: both
// depend on these options, neither on the other's header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "pgn/filter.h"

namespace bookforge::pgn {

enum class ProgressMode { kNever, kAuto, kAlways };

// A snapshot of a running read, for the progress line the CLI prints.
struct Progress {
  uint64_t bytes_read = 0;   // input bytes consumed so far (compressed size for compressed input)
  uint64_t total_bytes = 0;  // sum of the inputs' sizes, 0 when unknown (standard input)
  uint64_t games = 0;        // games finished by the workers
  double seconds = 0;        // since the start
  bool done = false;         // the last call, once everything is read
};

// A stretch of an input's decompressed bytes: [begin, end).
struct ByteRange {
  uint64_t begin = 0;
  uint64_t end = ~uint64_t(0);
};

struct PipelineOptions {
  std::vector<std::string> inputs;               // file paths; "-" is standard input
  int threads = 0;                               // parser threads; 0 = all cores
  int max_ply = 0;                               // replay at most this many plies per game; 0 = no limit
  GameFilter filter;                             // which games are accepted
  bool strict = false;                           // the first bad game is an error instead of a skip
  size_t block_size = 256 << 10;                 // bytes per block handed to a worker (tests use tiny ones)
  ProgressMode progress = ProgressMode::kNever;  // progress line on stderr
  int max_reported_bad_games = 10;               // bad games kept in full in ReadStats::bad_examples
  // Called from the reader thread a few times a second (and once at the end) unless progress
  // is kNever; cli/ resolves kAuto (is stderr a terminal?) and prints. The core never prints.
  std::function<void(const Progress&)> on_progress;
  // A game longer than this is skipped as bad ("oversized_game") without holding it in memory.
  size_t max_game_bytes = size_t(64) << 20;
  // When set, sees every byte of input `input` as read (decompressed), in order, on the reader
  // thread: db add hashes the content this way instead of decompressing it a second time.
  std::function<void(size_t input, std::string_view bytes)> on_input_bytes;
  // Per input, when not empty: only the games whose first byte lies in the range are read (a
  // part of the input, `count --part`). The others are still split off, since a game boundary
  // is only found by scanning from the start, but are never parsed, and reading stops past the
  // range. Every game starts in exactly one of ranges that tile the input.
  std::vector<ByteRange> game_starts;
};

}  // namespace bookforge::pgn
