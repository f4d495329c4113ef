// bookforge probe: the book's moves for one position, with SAN and UCI, weight, share, learn
// value and the opening each move leads to.
#include <cstdio>
#include <memory>
#include <string>

#include "base/hex.h"
#include "book/opening_names.h"
#include "book/polyglot/format.h"
#include "book/polyglot/probe.h"
#include "chess/san.h"
#include "cli/command.h"
#include "cli/openings_option.h"
#include "cli/position_options.h"
#include "json/book_json.h"

namespace bookforge::cli {
namespace {

struct ProbeOptions {
  std::string book;
  PositionOptions position;
  bool json = false;
  std::string openings;
};

std::string san_of(const chess::Board& board, const book::ProbedMove& m) {
  return m.move == chess::Move::none() ? std::string("?") : chess::move_to_san(board, m.move);
}

std::string uci_of(const book::ProbedMove& m) {
  return m.move == chess::Move::none() ? book::polyglot_move_text(m.entry.move) : chess::move_to_uci(m.move);
}

std::string opening_of(const book::OpeningNames& names, uint64_t key) {
  const book::OpeningName* name = names.find(key);
  return name ? name->eco + " " + name->name : std::string();
}

void print_text(const chess::Board& board, const std::vector<book::ProbedMove>& moves,
                const book::OpeningNames& names) {
  std::printf("position  %s\n", board.fen().c_str());
  std::printf("key       %s\n", hex64(board.key()).c_str());
  if (std::string opening = opening_of(names, board.key()); !opening.empty())
    std::printf("opening   %s\n", opening.c_str());
  if (moves.empty()) {
    std::printf("no book moves for this position\n");
    return;
  }
  uint64_t total = 0;
  for (const book::ProbedMove& m : moves) total += m.entry.weight;
  std::printf("\n%-8s %-6s %7s %8s %10s  %s\n", "move", "uci", "weight", "share", "learn", "opening");
  for (const book::ProbedMove& m : moves) {
    double share = total ? 100.0 * m.entry.weight / double(total) : 0.0;
    std::string opening;
    if (m.move != chess::Move::none()) {
      chess::Board after = board;
      chess::UndoInfo undo;
      after.make_move(m.move, undo);
      opening = opening_of(names, after.key());
    } else {
      opening = "(move not legal in this position)";
    }
    std::printf("%-8s %-6s %7u %7.2f%% %10u  %s\n", san_of(board, m).c_str(), uci_of(m).c_str(),
                m.entry.weight, share, m.entry.learn, opening.c_str());
  }
  std::printf("\n%zu move%s, total weight %llu\n", moves.size(), moves.size() == 1 ? "" : "s",
              static_cast<unsigned long long>(total));
}

int run_probe(const ProbeOptions& opts) {
  chess::Board board;
  std::optional<book::PolyglotBook> book;
  if (int code = open_position_and_book(opts.position, opts.book, board, book); code != kExitOk) return code;
  std::vector<book::ProbedMove> moves = book::probe_book(*book, board);
  if (opts.json) {
    std::puts(json::json_text(json::probe_json(board, moves)).c_str());
    return kExitOk;
  }
  book::OpeningNames names;
  if (int code = load_opening_names(opts.openings, names); code != kExitOk) return code;
  print_text(board, moves, names);
  return kExitOk;
}

void setup_probe(CLI::App& root) {
  auto opts = std::make_shared<ProbeOptions>();
  CLI::App* cmd =
      add_subcommand(root, "probe", "Show a book's moves for a position (default: the start position)");
  cmd->add_option("book", opts->book, "Polyglot (.bin), Arena (.abk) or ChessBase (.ctg) book")->required();
  add_position_options(*cmd, opts->position);
  cmd->add_flag("--json", opts->json,
                "Print {\"key\": ..., \"moves\": [{\"uci\", \"san\", \"weight\", \"learn\"}]}");
  add_openings_option(*cmd, opts->openings);
  cmd->callback([opts] { set_exit_code(run_probe(*opts)); });
}

}  // namespace

BOOKFORGE_REGISTER_COMMAND("probe", setup_probe);

}  // namespace bookforge::cli
