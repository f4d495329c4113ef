// bookforge pick: one book move for a position, chosen as an engine playing from the book would
// choose it: at random in proportion to the weights (reproducible with --seed), or the heaviest.
#include <cstdio>
#include <memory>
#include <optional>
#include <random>
#include <string>

#include "book/polyglot/probe.h"
#include "chess/san.h"
#include "cli/command.h"
#include "cli/number_option.h"
#include "cli/position_options.h"

namespace bookforge::cli {
namespace {

struct PickOptions {
  std::string book;
  PositionOptions position;
  std::optional<uint64_t> seed;
  bool best = false;
};

int run_pick(const PickOptions& opts) {
  chess::Board board;
  std::optional<book::PolyglotBook> book;
  if (int code = open_position_and_book(opts.position, opts.book, board, book); code != kExitOk) return code;
  std::mt19937_64 rng(opts.seed ? *opts.seed : std::random_device{}());
  std::optional<book::ProbedMove> picked = book::pick_move(book::probe_book(*book, board), rng(), opts.best);
  if (!picked) {
    print_error("no book move for this position in " + opts.book);
    return kExitFailure;
  }
  // UCI first, as an engine would send it, then SAN for people.
  std::printf("%s %s\n", chess::move_to_uci(picked->move).c_str(),
              chess::move_to_san(board, picked->move).c_str());
  return kExitOk;
}

void setup_pick(CLI::App& root) {
  auto opts = std::make_shared<PickOptions>();
  CLI::App* cmd =
      add_subcommand(root, "pick", "Choose a book move for a position, by weight (prints UCI and SAN)");
  cmd->add_option("book", opts->book, "Polyglot (.bin), Arena (.abk) or ChessBase (.ctg) book")->required();
  add_position_options(*cmd, opts->position);
  cmd->add_option("--seed", opts->seed, "Seed for the random choice (the same seed gives the same move)")
      ->transform(whole_number(0, kNoLimit));
  cmd->add_flag("--best", opts->best, "The heaviest move instead of a random one");
  cmd->callback([opts] { set_exit_code(run_pick(*opts)); });
}

}  // namespace

BOOKFORGE_REGISTER_COMMAND("pick", setup_pick);

}  // namespace bookforge::cli
