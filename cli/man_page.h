// The manual page bookforge(1), in roff for man(1), written from the command line's outline:
// NAME, SYNOPSIS, DESCRIPTION, the options every command takes, then one section per command
// (`bookforge build`, `bookforge db add`, ...) with its arguments and its options by group, and
// the exit status.
#pragma once

#include <string>

#include "cli/command_outline.h"

namespace bookforge::cli {

std::string man_page(const CommandOutline& program, const std::string& version);

}  // namespace bookforge::cli
