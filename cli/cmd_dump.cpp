// bookforge dump: a book's tree from the start position, as PGN with variations or as CSV/JSON
// records (one per position and move), optionally as one side's repertoire.
#include <iostream>
#include <memory>
#include <string>

#include "book/book_file.h"
#include "book/polyglot/dump.h"
#include "cli/command.h"
#include "cli/number_option.h"
#include "json/book_json.h"

namespace bookforge::cli {
namespace {

struct DumpOptions {
  std::string book;
  std::string format = "pgn";
  std::string side;
  int max_ply = 0;
};

int run_dump(const DumpOptions& opts) {
  auto book = book::open_book_file(opts.book);
  if (!book) {
    print_error(book.error().message);
    return kExitFailure;
  }
  book::DumpOptions dump;
  if (opts.side == "white") dump.side = chess::kWhite;
  if (opts.side == "black") dump.side = chess::kBlack;
  dump.max_ply = opts.max_ply;
  dump.book_name = opts.book;
  std::ios::sync_with_stdio(false);
  if (opts.format == "pgn") {
    book::dump_pgn(*book, dump, std::cout);
  } else if (opts.format == "csv") {
    book::CsvDumpWriter csv(std::cout);
    book::dump_records(*book, dump, csv);
  } else {
    json::JsonDumpWriter records(std::cout);
    book::dump_records(*book, dump, records);
    records.finish();
  }
  std::cout.flush();
  if (!std::cout) {
    print_error("cannot write the dump to standard output");
    return kExitFailure;
  }
  return kExitOk;
}

void setup_dump(CLI::App& root) {
  auto opts = std::make_shared<DumpOptions>();
  CLI::App* cmd =
      add_subcommand(root, "dump", "Print a book's tree from the start position (stops at transpositions)");
  cmd->add_option("book", opts->book, "Polyglot (.bin), Arena (.abk) or ChessBase (.ctg) book")->required();
  cmd->add_option("--format", opts->format,
                  "pgn (variations), json or csv (one record per position and move)")
      ->check(CLI::IsMember({"pgn", "json", "csv"}));
  cmd->add_option("--side", opts->side,
                  "One side's repertoire: its book moves and every opponent reply the book answers")
      ->check(CLI::IsMember({"white", "black"}));
  cmd->add_option("--max-ply", opts->max_ply, "Stop lines after this many plies (0: no limit)")
      ->transform(whole_number(0, 65534));
  cmd->callback([opts] { set_exit_code(run_dump(*opts)); });
}

}  // namespace

BOOKFORGE_REGISTER_COMMAND("dump", setup_dump);

}  // namespace bookforge::cli
