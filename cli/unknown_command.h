// The message for a mistyped subcommand ("bookforge buidl", "bookforge db ad"): which
// subcommands exist there, and the closest one. CLI11 alone says only that a subcommand is
// required, or that an argument was not expected.
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace bookforge::cli {

// When a word on the command line, before the first flag, stands where a subcommand must be
// and names none: "unknown command 'buidl' (did you mean 'build'?); the commands are: ...".
std::optional<std::string> unknown_command_message(const CLI::App& root, int argc, const char* const* argv);

}  // namespace bookforge::cli
