#include "cli/interrupt.h"

#include <signal.h>

#include "base/temp_file.h"

namespace bookforge::cli {
namespace {

extern "C" void on_interrupt(int signal) {
  unlink_registered_temp_names();
  // SA_RESETHAND has restored the default action; the signal is blocked until this returns,
  // then ends the process.
  ::raise(signal);
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  action.sa_flags = SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction previous {};
    // A signal the parent set to be ignored (nohup, a background job's SIGINT) stays ignored.
    if (::sigaction(signal, nullptr, &previous) == 0 && previous.sa_handler == SIG_IGN) continue;
    ::sigaction(signal, &action, nullptr);
  }
}

}  // namespace bookforge::cli
