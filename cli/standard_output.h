// Whole texts for standard output (the manual page, the completion script), where a write that
// fails must fail the command: the build redirects them into the files it installs.
#pragma once

#include <string_view>

namespace bookforge::cli {

// Writes `text` and flushes; false (with the error printed) when the text did not all get out.
bool write_standard_output(std::string_view text);

}  // namespace bookforge::cli
