// An external UCI engine (Stockfish, for instance) in a child process, driven over pipes: the
// other side of engine/uci.*. Used to compare against a reference engine and to rescore books
// with a stronger engine than the embedded one.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/board.h"
#include "engine/result.h"
#include "engine/search.h"

namespace bookforge {

class UciClient {
 public:
  // Starts the engine, completes the uci/uciok handshake, sets the options, waits for readyok.
  static Result<std::unique_ptr<UciClient>> launch(
      const std::string& path, const std::vector<std::pair<std::string, std::string>>& options,
      int64_t timeout_ms = 10000);
  ~UciClient();
  UciClient(const UciClient&) = delete;
  UciClient& operator=(const UciClient&) = delete;

  const std::string& name() const { return name_; }

  // "ucinewgame" and a readyok round trip.
  Status new_game();

  // Searches `board` with the given limits (depth, nodes, movetime; multipv and search_moves
  // are passed on as MultiPV and searchmoves). One line per move, at most multipv of them: each
  // move's last exact report, ranked as the engine last ranked it, best first (an engine reorders
  // its lines as it deepens and may stop mid-iteration, so lines are matched by their first move,
  // never by rank). Waits at most the limit plus `grace_ms` (then fails, after "stop").
  Result<SearchResult> search(const Board& board, const SearchLimits& limits, int64_t grace_ms = 30000);

 private:
  UciClient() = default;
  Status send(const std::string& line);
  Result<std::string> read_line(int64_t timeout_ms);
  Status expect(const std::string& token, int64_t timeout_ms);

  std::string path_;
  std::string name_;
  pid_t pid_ = -1;
  int to_engine_ = -1;
  int from_engine_ = -1;
  std::string buffer_;
  int multipv_ = 1;  // the MultiPV option as last sent
};

// Parses the score of an "info" line ("cp 31", "mate -2") into a search score.
Score uci_score_to_score(const std::string& kind, int64_t value);

}  // namespace bookforge
