// bookforge manual: prints the manual page bookforge(1) in roff, written from the command
// definitions that every subcommand registers, so that it lists exactly the flags --help does.
// The build installs it as share/man/man1/bookforge.1.gz (cmake/Manual.cmake).
#include "cli/command.h"
#include "cli/command_outline.h"
#include "cli/man_page.h"
#include "cli/standard_output.h"

namespace bookforge::cli {
namespace {

void setup_manual(CLI::App& root) {
  CLI::App* cmd = add_subcommand(
      root, "manual", "Print the manual page in roff (read it with `bookforge manual | man -l -`)");
  // Run after every subcommand has registered: the page describes the whole tree.
  cmd->callback([&root] {
    const bool written = write_standard_output(man_page(outline_command(root), BOOKFORGE_VERSION));
    set_exit_code(written ? kExitOk : kExitFailure);
  });
}

}  // namespace

BOOKFORGE_REGISTER_COMMAND("manual", setup_manual);

}  // namespace bookforge::cli
