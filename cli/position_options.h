// The --fen / --moves pair of the book queries (probe, pick): a position given as a FEN, or as
// moves in SAN or UCI played from the start position (or from --fen).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "engine/board.h"
#include "engine/result.h"

namespace bookforge::cli {

struct PositionOptions {
  std::string fen;
  std::string moves;
};

void add_position_options(CLI::App& command, PositionOptions& options);

// The position the options describe; errors say which option is wrong and why.
Result<Board> resolve_position(const PositionOptions& options);

}  // namespace bookforge::cli
