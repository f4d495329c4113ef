// --config FILE for a subcommand: settings read from a TOML (or INI) file with CLI11's config
// parser, one "flag-name = value" per line, at the top level or in a [<subcommand>] section:
//
//   rules = "polyglot"
//   max-ply = 40
//   side = "white"
//   drop-losing = false
//   tag = ["WhiteTitle=GM", "BlackTitle=GM"]
//
// A flag given on the command line wins over the file. (CLI11 reads config files only for the
// top-level command, before the subcommand; this applies one after the subcommand's flags.)
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace bookforge::cli {

// Applies the file's settings to `command`'s options that were not given. Throws CLI11's
// errors (unreadable file, unknown setting, bad value), which end the run with exit code 2.
void apply_config_file(CLI::App& command, const std::string& path);

}  // namespace bookforge::cli
