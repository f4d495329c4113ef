// --config FILE for a subcommand: settings read from a TOML file (toml++ reads it, so anything
// TOML allows, such as an array over several lines, works), one "flag-name = value" each, at
// the top level or in a [<subcommand>] section:
//
//   rules = "polyglot"
//   max-ply = 40
//   side = "white"
//   drop-losing = false
//   date-from = 2012-05-01
//   tag = ["WhiteTitle=GM",
//          "BlackTitle=GM"]
//
// A flag given on the command line wins over the file. A key that is no flag of the command, a
// section other than the command's, or a value the flag rejects is an error naming the file,
// the line and the key (exit code 2), so that a misspelt rule is never silently ignored.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace bookforge::cli {

// Applies the file's settings to `command`'s options that were not given. Throws
// CLI::ValidationError (unreadable or malformed file, unknown setting or section, bad value),
// which ends the run with exit code 2.
void apply_config_file(CLI::App& command, const std::string& path);

}  // namespace bookforge::cli
