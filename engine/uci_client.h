// An external UCI engine (Stockfish, for instance) in a child process, driven over pipes: the
// other side of engine/uci.*. Used to compare against a reference engine and to rescore books
// with a stronger engine than the embedded one.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "chess/board.h"
#include "engine/search.h"

namespace bookforge::engine {

// Every wait for the engine's reply is measured by the engine's own work, not by the wall clock:
// on a loaded machine (an engine at nice 19 beside a compile) a search that takes half a second
// of CPU can take a minute, and the engine is starved, not hung. A wait with a limit of L ms
// fails when the engine has used more than L ms of CPU per thread (set by the "Threads" option)
// since it began, which a busy engine that never answers does, or when it has used no CPU at all
// for ten times L of wall time, which a hung engine that sleeps does.
class UciClient {
 public:
  // Starts the engine, completes the uci/uciok handshake, sets the options, waits for readyok;
  // each of the two waits is limited by `timeout_ms` as above.
  static Result<std::unique_ptr<UciClient>> launch(
      const std::string& path, const std::vector<std::pair<std::string, std::string>>& options,
      int64_t timeout_ms = 10000);
  ~UciClient();
  UciClient(const UciClient&) = delete;
  UciClient& operator=(const UciClient&) = delete;

  const std::string& name() const { return name_; }

  // "ucinewgame" and a readyok round trip (a wait limited by 30 s, as above).
  Status new_game();

  // Searches `board` with the given limits (depth, nodes, movetime; multipv and search_moves
  // are passed on as MultiPV and searchmoves). One line per move, at most multipv of them: each
  // move's last exact report, ranked as the engine last ranked it, best first (an engine reorders
  // its lines as it deepens and may stop mid-iteration, so lines are matched by their first move,
  // never by rank). The wait for "bestmove" is limited by the movetime plus `grace_ms`, as above
  // (so a node or depth limit gets `grace_ms` of CPU); when it fails, "stop" is sent.
  Result<SearchResult> search(const chess::Board& board, const SearchLimits& limits,
                              int64_t grace_ms = 30000);

  // The engine's static evaluation of `board` in centipawns, White's view, by Stockfish's "eval"
  // command (not part of UCI: other engines do not answer it). Empty when the engine gives none
  // (Stockfish gives none in check).
  Result<std::optional<Score>> static_eval(const chess::Board& board);

 private:
  class ReplyWait;

  UciClient() = default;
  Status send(const std::string& line);
  // A wait for `what` (for instance "bestmove"; `about` says for what, " for <fen>"), limited by
  // `limit_ms` as above.
  ReplyWait wait_for(const std::string& what, int64_t limit_ms, const std::string& about = "") const;
  Result<std::string> read_line(ReplyWait& wait);
  Status expect(const std::string& token, int64_t timeout_ms);

  std::string path_;
  std::string name_;
  pid_t pid_ = -1;
  int to_engine_ = -1;
  int from_engine_ = -1;
  std::string buffer_;
  int multipv_ = 1;  // the MultiPV option as last sent
  int threads_ = 1;  // the Threads option as sent: how many cores the engine may keep busy
};

// Parses the score of an "info" line ("cp 31", "mate -2") into a search score.
Score uci_score_to_score(const std::string& kind, int64_t value);

}  // namespace bookforge::engine
