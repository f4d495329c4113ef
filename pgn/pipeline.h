// The parallel reading pipeline: one reader/decompressor thread cuts the inputs into blocks
// at game boundaries; N worker threads lex, filter and replay the games and hand each
// accepted game to their own GameSink. Counts are sums, so the results do not depend on the
// number of threads or on where blocks were cut.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/result.h"
#include "pgn/filter.h"
#include "pgn/game.h"

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
};

// A bad game, as reported to the user: file, game number (1-based, per file) and line.
struct BadGame {
  std::string file;
  uint64_t game_number = 0;
  uint64_t line = 0;
  std::string reason;               // short key, e.g. "illegal_move", "ambiguous_move", "bad_fen"
  std::string detail;               // human-readable, e.g. "move 23... Nxe5: no knight can reach e5"
  uint64_t global_game_number = 0;  // counted over all inputs (the order of bad_examples)
};

struct ReadStats {
  uint64_t games = 0;                           // every game seen, whatever became of it
  uint64_t accepted = 0;                        // passed the filters and replayed cleanly
  std::map<std::string, uint64_t> rejected;     // filter name -> games it rejected
  uint64_t bad = 0;                             // skipped as malformed
  std::map<std::string, uint64_t> bad_reasons;  // reason -> count
  std::vector<BadGame> bad_examples;            // the first max_reported_bad_games, in input order
  uint64_t unsupported_variant = 0;             // Chess960, crazyhouse, ... (skipped)
  uint64_t plies = 0;                           // plies replayed (and handed to sinks)
  uint64_t bytes = 0;                           // input bytes read (compressed size for compressed input)
  double seconds = 0;
};

// Creates the sink of worker `index` (0 .. threads-1); called once per worker before reading.
using SinkFactory = std::function<GameSink&(int index)>;

// Reads every input and calls the sinks. An I/O or decompression error (or, with strict, a bad
// game) ends the run with an Error naming the file and byte offset. So does an input in which
// no game has a legal move or a tag section (see replay.h: empty, binary, or text that is not
// PGN); games filtered out, of other variants or bad still make an input PGN.
Result<ReadStats> read_games(const PipelineOptions& options, const SinkFactory& sinks);

// The number of worker threads read_games will use for these options.
int pipeline_threads(const PipelineOptions& options);

}  // namespace bookforge::pgn
