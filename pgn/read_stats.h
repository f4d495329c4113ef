// What a read of PGN counted: games accepted, rejected by each filter, bad (with the first few
// in full), plies replayed. Each worker's replay (pgn/replay.h) counts into its own copy and
// the pipeline (pgn/pipeline.h) sums them, so both use these types and neither includes the
// other's header for them.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace bookforge::pgn {

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

}  // namespace bookforge::pgn
