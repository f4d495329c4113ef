// The --exits flags of `bookforge build`: the book's exit positions, evaluated by the embedded
// engine or an external one and filtered by an evaluation band, written as EPD once the book is written
// (book/exits.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "book/exits.h"
#include "cli/command.h"
#include "cli/filter_options.h"

namespace bookforge::cli {

struct ExitFlags {
  std::string path;  // the EPD file; empty: no exits
  int depth = book::ExitOptions{}.depth;
  uint64_t nodes = 0;
  std::optional<int> eval_min;
  std::optional<int> eval_max;
  std::string engine;  // external UCI engine; empty: the embedded one
  CLI::Option* depth_opt = nullptr;
  CLI::Option* nodes_opt = nullptr;
  CLI::Option* min_opt = nullptr;
  CLI::Option* max_opt = nullptr;
  CLI::Option* engine_opt = nullptr;
};

// The help of `exits --engine` and `build --exit-engine`.
inline constexpr const char* kExitEngineHelp =
    "Search the exits with this external UCI engine (e.g. /usr/games/stockfish) instead of the embedded one: "
    "one process per thread, Threads 1, a new game before every position";

void add_exit_options(CLI::App* cmd, ExitFlags& flags);

// The exit options when --exits was given, none otherwise (or an error for a flag that needs
// it, or an empty band). Threads follow the read flags.
Result<std::optional<book::ExitOptions>> make_exit_options(const ExitFlags& flags, const ReadFlags& read);

// The exits of the book at `book_path` as EPD, to `epd_path` (an OutputFile, base/output_file.h;
// "-": standard output) and, unless quiet, one summary line (on stderr when the EPD goes to
// standard output).
Status write_exits(const std::string& epd_path, const book::ExitOptions& options,
                   const std::string& book_path, bool quiet);

}  // namespace bookforge::cli
