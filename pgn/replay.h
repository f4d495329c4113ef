// The visitor behind the pipeline: applies the variant check and the filters to each game,
// replays the accepted ones from their start position up to max_ply, and hands
// (key, move, ply) records to the worker's sink. Counts everything into the worker's stats.
//
// Rules worth knowing:
//   - The result of a game is its Result tag when that says 1-0, 0-1 or 1/2-1/2, else the
//     result token that ends its movetext.
//   - Filters judge tags first; a rejected game is not replayed (so it never counts as bad).
//     min_plies needs the game's length: past max_ply the remaining moves are only counted
//     (as tokens of the main line, not replayed) until min_plies is reached. Without
//     min_plies the rest of the game is skipped unread.
//   - Only plies up to max_ply are checked for legality; a bad move after it goes unnoticed.
//   - A null move ("--", "Z0") ends the recording: the positions after it never occurred in
//     the game. The game is still accepted with the plies before it.
//   - A non-empty [FEN] tag sets the start position ([SetUp] alone changes nothing); an empty
//     one means the standard start.
//   - Variations and comments are skipped.
//   - A game counts as recognised PGN when it has a legal move, two tags, or one tag and no
//     move that failed. A game a filter rejects is read up to its first move for that, until
//     the worker has found one such game in its input.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"
#include "chess/board.h"
#include "chess/san.h"
#include "pgn/filter.h"
#include "pgn/game.h"
#include "pgn/pipeline_options.h"
#include "pgn/read_stats.h"
#include "pgn/visitor.h"

namespace bookforge::pgn {

// The position a game starts from: its [FEN] tag's when that is not empty, else the standard
// start (the rule above). An error for a [FEN] that is not a position. For a Chess960 game the
// FEN is read as X-FEN or Shredder-FEN, and the standard start is Chess960 position 518.
Result<chess::Board> start_position(const TagList& tags, bool chess960 = false);

// Counters of one worker, merged into ReadStats at the end.
struct WorkerStats {
  ReadStats stats;
  std::array<uint64_t, std::size(kFilterNames)> rejected{};  // by index into kFilterNames
  // Games with a legal move, two tags, or one tag and no move that failed, whatever became of them
  // (rejected games only until one was found in their input): an input with none is not PGN (a
  // picture, an archive, prose), however many stretches of it were read as games.
  uint64_t recognised = 0;
  void merge_into(ReadStats& total) const;
};

class GameReplayer final : public Visitor {
 public:
  GameReplayer(const PipelineOptions& options, GameSink& sink, WorkerStats& stats);

  // Before each game: which input it comes from, its numbers (1-based) and its offset there.
  void set_origin(const std::string* file, uint64_t number_in_file, uint64_t global_number,
                  uint64_t offset_in_file) {
    file_ = file;
    number_in_file_ = number_in_file;
    global_number_ = global_number;
    offset_in_file_ = offset_in_file;
  }
  // The last game was bad (for --strict).
  bool last_game_bad() const { return state_ == State::kBad; }
  const BadGame& last_bad_game() const { return last_bad_; }

  Control begin_game(const GameContext& game) override;
  Control tag(std::string_view name, TagValue value) override;
  Control begin_movetext() override;
  Control san(std::string_view token) override;
  Control begin_variation() override { return Control::kSkip; }
  Control error(LexError error, const char* where) override;
  void end_game() override;

 private:
  // kProbing: a game that a filter rejected, read up to its first move.
  enum class State : uint8_t { kReplaying, kCounting, kProbing, kDone, kRejected, kBad, kUnsupported };

  Control bad(std::string_view reason, std::string detail, const char* where);
  Control bad_move(std::string_view token, chess::SanError error);
  // san() once the replay is over (kCounting) or for a rejected game's first move (kProbing).
  Control san_after_replay(std::string_view token);
  Control reject(std::string_view filter);  // one of kFilterNames
  Outcome resolve_outcome() const;

  const PipelineOptions& options_;
  GameSink& sink_;
  WorkerStats& stats_;
  const std::string* file_ = nullptr;
  uint64_t number_in_file_ = 0;
  uint64_t offset_in_file_ = 0;
  uint64_t global_number_ = 0;

  const GameContext* game_ = nullptr;
  TagList tags_;
  chess::Board board_;
  chess::UndoInfo undo_;  // written by every move, never read: a member saves initialising one per move
  State state_ = State::kDone;
  Outcome outcome_ = Outcome::kUnknown;
  uint16_t start_ply_ = 0;                 // Board::game_ply() of the start position
  int plies_seen_ = 0;                     // moves of the main line so far, replayed or only counted
  const std::string* pgn_file_ = nullptr;  // the input of the last game found to be PGN
  bool first_move_legal_ = false;          // kProbing found a legal first move (or a [FEN] to start from)
  std::vector<PlyRecord> plies_;
  BadGame last_bad_;
};

}  // namespace bookforge::pgn
