// The --openings flag of the commands that name openings (probe, db explore) and the table it
// loads.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "book/opening_names.h"

namespace bookforge::cli {

void add_openings_option(CLI::App& command, std::string& openings);

// The table of --openings, or of the default path when the flag is empty. A table the user
// named must load (kExitFailure after the message otherwise); a missing default only warns and
// leaves `names` empty. kExitOk when the command can go on.
int load_opening_names(const std::string& openings, book::OpeningNames& names);

}  // namespace bookforge::cli
