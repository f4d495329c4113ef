// Whole texts for standard output (the manual page, the completion script), where a write that
// fails must fail the command: the build redirects them into the files it installs.
#pragma once

#include <string_view>

#include "base/result.h"

namespace bookforge::cli {

// Writes `text` and flushes; an error when the text did not all get out.
Status put_standard_output(std::string_view text);

// The same, false (with the error printed) when the text did not all get out.
bool write_standard_output(std::string_view text);

}  // namespace bookforge::cli
