// The --memory flag of the commands that tally games (build, db add).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "counts/tally.h"

namespace bookforge::cli {

void add_memory_option(CLI::App& command, std::string& memory);

// Sets the tally's budget from --memory: without it, a quarter of RAM, with the tables starting
// small and growing with spills (counts/tally.h); with it, the given size, usable from the start.
// kExitOk, or kExitUsage after the message for a size that does not parse.
int apply_memory_option(const std::string& memory, counts::TallyOptions& tally);

}  // namespace bookforge::cli
