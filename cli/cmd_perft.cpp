// bookforge perft: counts the leaf nodes of the legal move tree of a position, optionally per
// root move (--divide, in UCI notation). The last line is always "nodes N".
#include <cstdio>
#include <memory>
#include <string>

#include "chess/perft.h"
#include "chess/san.h"
#include "cli/command.h"
#include "cli/number_option.h"

namespace bookforge::cli {
namespace {

struct PerftOptions {
  std::string fen{chess::kStartFen};
  int depth = 1;
  bool divide = false;
};

int run_perft(const PerftOptions& opts) {
  Result<chess::Board> board = chess::Board::from_fen(opts.fen);
  if (!board.ok()) {
    print_error("--fen: " + board.error().message);
    return kExitUsage;  // the position came from the command line
  }
  uint64_t nodes = 0;
  if (opts.divide) {
    for (const auto& [move, count] : chess::perft_divide(*board, opts.depth)) {
      std::printf("%s: %llu\n", chess::move_to_uci(move).c_str(), static_cast<unsigned long long>(count));
      nodes += count;
    }
    if (opts.depth == 0) nodes = 1;
    std::printf("\n");
  } else {
    nodes = chess::perft(*board, opts.depth);
  }
  std::printf("nodes %llu\n", static_cast<unsigned long long>(nodes));
  return kExitOk;
}

void setup_perft(CLI::App& root) {
  auto opts = std::make_shared<PerftOptions>();
  CLI::App* cmd =
      add_subcommand(root, "perft", "Count the leaf nodes of the legal move tree (move generator test)");
  cmd->add_option("--fen", opts->fen, "Position to start from (default: the start position)");
  cmd->add_option("--depth,-d", opts->depth, "Depth in plies")->required()->transform(whole_number(0, 32));
  cmd->add_flag("--divide", opts->divide, "Print the node count below each root move");
  cmd->callback([opts] { set_exit_code(run_perft(*opts)); });
}

}  // namespace

BOOKFORGE_REGISTER_COMMAND("perft", setup_perft);

}  // namespace bookforge::cli
