// The exit positions of a book: where its lines end. Every position a book move leads to that
// has no book move itself is an exit; an engine evaluates each, and those within an evaluation
// band are written as EPD. Engine testers start games from such positions (balanced or
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
  int hash_mb = 8;  // per thread
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
};

// The exits of `book` reached from the start position through its moves (those of the batch),
// evaluated and filtered, in the order a breadth-first walk finds them (nearest the start first). The same
// list for any number of threads: every search starts from a cleared engine.
Result<std::vector<ExitPosition>> book_exits(const PolyglotBook& book, const ExitOptions& options,
                                             ExitStats& stats);

// One EPD line per exit: the position's four FEN fields, then `ce` (the score from the side to
// move's point of view, as EPD defines it), `acd` (the depth), `hmvc`, `fmvn`, and `c0` saying
// where it came from.
std::string exits_epd(const std::vector<ExitPosition>& exits);

}  // namespace bookforge::book
