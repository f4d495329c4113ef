// The exit positions of a book: where its lines end. Every position a book move leads to that
// has no book move itself is an exit; an engine (the embedded one or an external UCI engine, as
// in rescoring: book/position_searcher.h) evaluates each, and those within an evaluation band are
// written as EPD. Engine testers start games from such positions (balanced or
// deliberately unbalanced openings taken from human games), the way the classic opening suites
// for engine matches were made.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/batch.h"
#include "base/result.h"
#include "book/polyglot/reader.h"
#include "chess/board.h"
#include "engine/score.h"

namespace bookforge::book {

struct ExitOptions {
  int depth = 10;      // search depth per exit...
  uint64_t nodes = 0;  // ...or node budget (then depth is 0)
  int threads = 1;
  int hash_mb = 8;          // per thread
  std::string engine_path;  // external UCI engine (found on PATH without a '/'); empty = the embedded one
  // The band kept, in centipawns from White's point of view, both ends included.
  std::optional<int> eval_min;
  std::optional<int> eval_max;
  // Only this slice of the exits in walk order (base/batch.h), taken before they are searched
  // and filtered: the batches' EPD, concatenated in order, is the whole list's.
  Batch batch;

  Status validate() const;
};

struct ExitPosition {
  chess::Board board;
  int ply = 0;              // book moves from the start to the position along the shortest line
  engine::Score white = 0;  // the engine's score, from White's point of view
  int depth = 0;            // the depth the search completed
};

struct ExitStats {
  uint64_t exits = 0;     // exit positions found (each key once)
  uint64_t in_batch = 0;  // of those, in the batch asked for (all of them by default)
  uint64_t kept = 0;      // of those, within the band
  std::string engine;     // the external engine's own name (its "id name"); empty for the embedded one
};

// The exits of `book` reached from the start position through its moves (those of the batch),
// evaluated and filtered, in the order a breadth-first walk finds them (nearest the start first). The same
// list for any number of threads: every search starts from a cleared engine (an external one
// gets "ucinewgame"). An external engine that cannot start or fails is an error naming its path.
Result<std::vector<ExitPosition>> book_exits(const PolyglotBook& book, const ExitOptions& options,
                                             ExitStats& stats);

// Starts the engine the options name and stops it again: a build whose exit engine cannot start
// fails before it writes its book, not after. An error names the engine's path.
Status check_exit_engine(const ExitOptions& options);

// One EPD line per exit: the position's four FEN fields, then `ce` (the score from the side to
// move's point of view, as EPD defines it), `acd` (the depth), `hmvc`, `fmvn`, and `c0` saying
// where it came from: "bookforge exit, [ENGINE, ]ply N, white S cp", with the external engine's
// name (ExitStats::engine) when one searched them.
std::string exits_epd(const std::vector<ExitPosition>& exits, const std::string& engine = "");

}  // namespace bookforge::book
