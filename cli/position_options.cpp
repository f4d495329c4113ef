#include "cli/position_options.h"

#include "book/book_file.h"
#include "chess/move_sequence.h"
#include "cli/command.h"

namespace bookforge::cli {

void add_position_options(CLI::App& command, PositionOptions& options) {
  command.add_option("--fen", options.fen, "The position as a FEN (default: the start position)");
  command.add_option("--moves", options.moves,
                     "Moves played from the start position (or --fen), SAN or UCI: \"e4 e5 Nf3\"");
  command.add_flag("--chess960", options.chess960,
                   "Read --fen as a Chess960 position: KQkq name the outermost rooks (X-FEN); file letters "
                   "(Shredder-FEN) are read either way, and castling moves are king takes rook");
}

Result<chess::Board> resolve_position(const PositionOptions& options, std::optional<chess::LastMove>* last) {
  chess::Board board;
  if (!options.fen.empty()) {
    Result<chess::Board> parsed = chess::Board::from_fen(options.fen, options.chess960);
    if (!parsed) return Error{"--fen: " + parsed.error().message};
    board = *parsed;
  }
  if (Status played = chess::play_moves(board, options.moves, last); !played)
    return Error{"--moves: " + played.error().message};
  return board;
}

int open_position_and_book(const PositionOptions& options, const std::string& book_path, chess::Board& board,
                           std::optional<book::PolyglotBook>& book) {
  Result<chess::Board> resolved = resolve_position(options);
  if (!resolved) {
    print_error(resolved.error().message);
    return kExitUsage;
  }
  board = *resolved;
  Result<book::PolyglotBook> opened = book::open_book_file(book_path);
  if (!opened) {
    print_error(opened.error().message);
    return kExitFailure;
  }
  book.emplace(std::move(*opened));
  return kExitOk;
}

}  // namespace bookforge::cli
