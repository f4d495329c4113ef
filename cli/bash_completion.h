// A bash completion script, written from the command line's outline: subcommands (and their
// aliases), each command's flags, the choices of a flag that CLI11 checks against a set, and
// file names wherever a free-text value or argument stands. Plain bash (4 or newer): it needs
// nothing from the bash-completion package, which only loads it on demand.
#pragma once

#include <string>

#include "cli/command_outline.h"

namespace bookforge::cli {

std::string bash_completion(const CommandOutline& program);

}  // namespace bookforge::cli
