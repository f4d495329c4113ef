// Ctrl-C, SIGTERM and SIGHUP: the temporary names a run has given files (base/temp_file.h) are
// removed, and the process then dies of the signal as it would have without a handler (a shell
// reports 130 for SIGINT, 143 for SIGTERM). Files without a name need nothing: they go with
// the process.
#pragma once

namespace bookforge::cli {

void install_interrupt_handlers();

}  // namespace bookforge::cli
