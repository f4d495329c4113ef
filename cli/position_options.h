// The --fen / --moves pair of the book queries (probe, pick): a position given as a FEN, or as
// moves in SAN or UCI played from the start position (or from --fen).
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "base/result.h"
#include "book/polyglot/reader.h"
#include "chess/board.h"
#include "chess/move_sequence.h"

namespace bookforge::cli {

struct PositionOptions {
  std::string fen;
  std::string moves;
  bool chess960 = false;  // --fen is a Chess960 position: X-FEN's KQkq name the outermost rooks
};

void add_position_options(CLI::App& command, PositionOptions& options);

// The position the options describe; errors say which option is wrong and why. `last`, if
// given, gets the last of --moves and the position before it (empty without --moves).
Result<chess::Board> resolve_position(const PositionOptions& options,
                                      std::optional<chess::LastMove>* last = nullptr);

// What probe and pick start from: the position and the opened book. kExitOk, or the exit code
// to return after the message this printed (usage for a bad position, failure for the book).
int open_position_and_book(const PositionOptions& options, const std::string& book_path, chess::Board& board,
                           std::optional<book::PolyglotBook>& book);

}  // namespace bookforge::cli
