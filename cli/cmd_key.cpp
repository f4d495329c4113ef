// bookforge key: prints the Polyglot key of a position (--fen, --moves played from the start
// position or from --fen) as 16 lower-case hex digits.
#include <cstdio>
#include <memory>
#include <string>

#include "cli/command.h"
#include "cli/position_options.h"

namespace bookforge::cli {
namespace {

// A bad --fen or --moves is bad command-line input (exit code 2).
int run_key(const PositionOptions& opts) {
  Result<chess::Board> board = resolve_position(opts);
  if (!board.ok()) {
    print_error(board.error().message);
    return kExitUsage;
  }
  std::printf("%016llx\n", static_cast<unsigned long long>(board->key()));
  return kExitOk;
}

void setup_key(CLI::App& root) {
  auto opts = std::make_shared<PositionOptions>();
  CLI::App* cmd = add_subcommand(root, "key", "Print the Polyglot key of a position");
  add_position_options(*cmd, *opts);
  cmd->callback([opts] { set_exit_code(run_key(*opts)); });
}

}  // namespace

BOOKFORGE_REGISTER_COMMAND("key", setup_key);

}  // namespace bookforge::cli
