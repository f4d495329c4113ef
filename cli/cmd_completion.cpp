// bookforge completion bash: prints a bash completion script written from the command
// definitions that every subcommand registers. The build installs it as
// share/bash-completion/completions/bookforge (cmake/Manual.cmake); without the package,
// `source <(bookforge completion bash)` loads it.
#include <memory>
#include <string>

#include "cli/bash_completion.h"
#include "cli/command.h"
#include "cli/command_outline.h"
#include "cli/standard_output.h"

namespace bookforge::cli {
namespace {

void setup_completion(CLI::App& root) {
  auto shell = std::make_shared<std::string>();
  CLI::App* cmd = add_subcommand(root, "completion", "Print a shell completion script (bash)");
  cmd->add_option("shell", *shell, "The shell to complete for")->required()->check(CLI::IsMember({"bash"}));
  // Run after every subcommand has registered: the script completes the whole tree. The
  // callback owns the value CLI11 writes into (bash being the only choice, it is not read).
  cmd->callback([&root, shell] {
    const bool written = write_standard_output(bash_completion(outline_command(root)));
    set_exit_code(written ? kExitOk : kExitFailure);
  });
}

}  // namespace

BOOKFORGE_REGISTER_COMMAND("completion", setup_completion);

}  // namespace bookforge::cli
