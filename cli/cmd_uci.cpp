// bookforge uci: the embedded engine as a UCI engine on standard input/output, playing from a
// Polyglot book (OwnBook/BookFile options, or --book) while the game is in it.
#include <iostream>
#include <memory>
#include <random>

#include "book/book_file.h"
#include "book/polyglot/probe.h"
#include "book/polyglot/reader.h"
#include "chess/san.h"
#include "cli/command.h"
#include "cli/number_option.h"
#include "engine/uci.h"

namespace bookforge::cli {
namespace {

struct UciOptions {
  std::string book;  // sets OwnBook and BookFile before the first command
  int hash_mb = 0;   // 0 = the option's default
  int threads = 0;
};

// A book move: the most played (highest weight) one, or a pick weighted by the book weights, as
// `pick` chooses (book/polyglot/probe.h). Weight 0 means "avoid": such an entry is never played, and
// a position whose entries all weigh 0 is out of the book.
Result<engine::BookProbe> open_book(const std::string& path) {
  Result<book::PolyglotBook> opened = book::open_book_file(path);
  if (!opened.ok()) return opened.error();
  auto shared = std::make_shared<book::PolyglotBook>(std::move(*opened));
  auto rng = std::make_shared<std::mt19937_64>(std::random_device{}());
  engine::BookProbe probe = [shared, rng](const chess::Board& board, bool best) {
    const std::optional<book::ProbedMove> picked =
        book::pick_move(book::probe_book(*shared, board), (*rng)(), best);
    return picked ? picked->move : chess::Move::none();
  };
  return probe;
}

int run_uci(const UciOptions& opts) {
  std::ios::sync_with_stdio(false);
  engine::UciSession session(std::cin, std::cout,
                             engine::UciIdentity{"bookforge " BOOKFORGE_VERSION, "the bookforge authors"},
                             open_book);
  // --book is command-line input: a book that cannot be used is an error before the protocol
  // starts, not an "info string" a GUI may never show.
  if (!opts.book.empty()) {
    if (Status s = session.set_default_book(opts.book); !s.ok()) {
      print_error("--book: " + s.error().message);
      return kExitUsage;
    }
  }
  if (opts.hash_mb > 0) session.handle("setoption name Hash value " + std::to_string(opts.hash_mb));
  if (opts.threads > 0) session.handle("setoption name Threads value " + std::to_string(opts.threads));
  session.run();
  return kExitOk;
}

void setup_uci(CLI::App& root) {
  auto opts = std::make_shared<UciOptions>();
  CLI::App* sub = add_subcommand(root, "uci", "Run the embedded engine as a UCI engine (stdin/stdout)");
  sub->add_option("--book", opts->book, "Polyglot book to play from (sets OwnBook and BookFile)")
      ->check(CLI::ExistingFile);
  sub->add_option("--hash", opts->hash_mb, "Transposition table size in MB")
      ->transform(whole_number(1, 65536));
  sub->add_option("--threads", opts->threads, "Search threads")->transform(whole_number(1, 256));
  sub->callback([opts] { set_exit_code(run_uci(*opts)); });
}

}  // namespace

BOOKFORGE_REGISTER_COMMAND("uci", setup_uci);

}  // namespace bookforge::cli
