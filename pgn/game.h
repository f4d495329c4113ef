// What the PGN pipeline hands to its consumers (book building, the SQLite store): one
// accepted game at a time, already replayed into (Polyglot key, Polyglot move) pairs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace bookforge::pgn {

enum class Outcome : uint8_t { kWhiteWins, kDraw, kBlackWins, kUnknown };

// The variants bookforge replays. A game's Variant tag names one (or another, which is skipped
// as unsupported: pgn/filter.h); a game without the tag is standard chess.
enum class Variant : uint8_t { kStandard, kChess960 };

// One ply of a replayed game: the position before the move and the move played from it.
struct PlyRecord {
  uint64_t key;   // Polyglot key of the position before the move
  uint16_t move;  // the move in Polyglot encoding (castling as king takes rook)
  uint16_t ply;   // plies since the game's start position (0 for the first move)
};

class TagList;  // pgn/tag_value.h

struct ReplayedGame {
  Outcome outcome = Outcome::kUnknown;
  uint16_t white_elo = 0;  // 0 when missing or unparsable
  uint16_t black_elo = 0;
  uint64_t game_number = 0;  // 1-based, counted over all games of the input in order
  // Board::game_ply() of the start position: 0 for the standard start, 2 * (fullmove - 1) +
  // (1 if Black moves first) for a [FEN] game. start_ply + PlyRecord::ply is the game ply of a
  // position, whose parity is its side to move (book building needs that: a key alone does not
  // tell who is to move).
  uint16_t start_ply = 0;
  Variant variant = Variant::kStandard;  // by its Variant tag, read once by the replay
  std::span<const PlyRecord> plies;      // the first min(max_ply, game length) plies
  // Where the game came from: its input as given (one of PipelineOptions::inputs), its 1-based
  // number within that input, and the offset of its first byte there (in decompressed bytes).
  const std::string* file = nullptr;
  uint64_t number_in_file = 0;
  uint64_t offset_in_file = 0;
  // Every tag of the game, for sinks that keep more than the counts (the store's slices, its
  // game records); valid during on_game only.
  const TagList* tags = nullptr;
};

// Receives the accepted games of one worker. on_game is called from that worker's thread
// only; different workers have different sinks, so a sink needs no locking.
class GameSink {
 public:
  virtual ~GameSink() = default;
  virtual void on_game(const ReplayedGame& game) = 0;
  // After the sink's last game, on the same thread: work the sink held back (a batch not yet
  // handed on) can be done there, while other workers are still busy, rather than afterwards
  // on one thread.
  virtual void on_end() {}
};

}  // namespace bookforge::pgn
