// The --exits flags of `bookforge build`: the book's exit positions, evaluated by the embedded
// engine and filtered by an evaluation band, written as EPD once the book is written
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
  int depth = 10;
  uint64_t nodes = 0;
  std::optional<int> eval_min;
  std::optional<int> eval_max;
  CLI::Option* depth_opt = nullptr;
  CLI::Option* nodes_opt = nullptr;
  CLI::Option* min_opt = nullptr;
  CLI::Option* max_opt = nullptr;
};

void add_exit_options(CLI::App* cmd, ExitFlags& flags);

// The exit options when --exits was given, none otherwise (or an error for a flag that needs
// it, or an empty band). Threads follow the read flags.
Result<std::optional<book::ExitOptions>> make_exit_options(const ExitFlags& flags, const ReadFlags& read);

// After the book is written: its exits as EPD (an OutputFile, base/output_file.h) and, unless
// quiet, one summary line.
Status write_exits(const ExitFlags& flags, const book::ExitOptions& options, const std::string& book_path,
                   bool quiet);

}  // namespace bookforge::cli
