// One thread's engine for searching book positions: the embedded one, or an external UCI engine
// (engine/uci_client.h) in a process of its own with Threads 1 and the hash asked for. Rescoring
// (book/verdict.h) and the exit positions (book/exits.h) both search through it, so that an
// external engine is driven the same way by both: a fresh game before every position, one
// process per thread.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "book/verdict.h"
#include "chess/board.h"
#include "engine/search.h"

namespace bookforge::engine {
class UciClient;
}

namespace bookforge::book {

class PositionSearcher {
 public:
  explicit PositionSearcher(RescoreLimits limits);
  ~PositionSearcher();
  PositionSearcher(const PositionSearcher&) = delete;
  PositionSearcher& operator=(const PositionSearcher&) = delete;

  // Creates the embedded engine or launches the external one; an error names its path.
  Status start();

  // The external engine's own name (its "id name"), once started; empty for the embedded one.
  std::string external_name() const;

  // Searches `board` within the limits, over `moves` (all legal moves when empty) with `multipv`
  // lines; `fresh` clears the engine first (a new game), so that the result does not depend on
  // what was searched before.
  Result<engine::SearchResult> search(const chess::Board& board, const std::vector<chess::Move>& moves,
                                      int multipv, bool fresh);

 private:
  RescoreLimits limits_;
  std::unique_ptr<engine::Engine> engine_;
  std::unique_ptr<engine::UciClient> client_;
};

// Calls `task(searcher, index)` for every index below `count`, on `threads` threads (no more
// than there are indices), each with a searcher of its own started from `limits`. The first
// error (a searcher that cannot start, or a task's) stops the others and is returned. Nothing is
// started when `count` is 0.
Status search_each(size_t count, const RescoreLimits& limits, int threads,
                   const std::function<Status(PositionSearcher&, size_t)>& task);

}  // namespace bookforge::book
