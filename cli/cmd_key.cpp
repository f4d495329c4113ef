// bookforge key: prints the Polyglot key of a position (--fen, --moves played from the start
// position or from --fen) as 16 lower-case hex digits.
#include <cstdio>
#include <memory>
#include <string>

#include "cli/command.h"
#include "engine/move_sequence.h"

namespace bookforge::cli {
namespace {

struct KeyOptions {
  std::string fen{kStartFen};
  std::string moves;
};

int run_key(const KeyOptions& opts) {
  Result<Board> board = Board::from_fen(opts.fen);
  if (!board.ok()) {
    print_error(board.error().message);
    return kExitFailure;
  }
  if (Status played = play_moves(*board, opts.moves); !played.ok()) {
    print_error("--moves: " + played.error().message);
    return kExitFailure;
  }
  std::printf("%016llx\n", static_cast<unsigned long long>(board->key()));
  return kExitOk;
}

void setup_key(CLI::App& root) {
  auto opts = std::make_shared<KeyOptions>();
  CLI::App* cmd = add_subcommand(root, "key", "Print the Polyglot key of a position");
  cmd->add_option("--fen", opts->fen, "Position (default: the start position)");
  cmd->add_option("--moves", opts->moves,
                  "Moves to play first, SAN or UCI: \"e4 e5 Nf3\" or \"e2e4 e7e5 g1f3\"");
  cmd->callback([opts] { set_exit_code(run_key(*opts)); });
}

}  // namespace

BOOKFORGE_REGISTER_COMMAND("key", setup_key);

}  // namespace bookforge::cli
