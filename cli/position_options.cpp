#include "cli/position_options.h"

#include "engine/move_sequence.h"

namespace bookforge::cli {

void add_position_options(CLI::App& command, PositionOptions& options) {
  command.add_option("--fen", options.fen, "The position as a FEN (default: the start position)");
  command.add_option("--moves", options.moves,
                     "Moves played from the start position (or --fen), SAN or UCI: \"e4 e5 Nf3\"");
}

Result<Board> resolve_position(const PositionOptions& options) {
  Board board;
  if (!options.fen.empty()) {
    Result<Board> parsed = Board::from_fen(options.fen);
    if (!parsed) return Error{"--fen: " + parsed.error().message};
    board = *parsed;
  }
  if (Status played = play_moves(board, options.moves); !played)
    return Error{"--moves: " + played.error().message};
  return board;
}

}  // namespace bookforge::cli
