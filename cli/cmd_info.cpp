// bookforge info: a book's size and health: entries, positions, validity, what is reachable
// from the start position, its longest line, and moves that are illegal where they are reached.
#include <sys/stat.h>

#include <cstdio>
#include <memory>
#include <string>

#include "book/book_file.h"
#include "book/polyglot/info.h"
#include "chess/san.h"
#include "cli/command.h"
#include "json/book_json.h"

namespace bookforge::cli {
namespace {

struct InfoOptions {
  std::string book;
  bool json = false;
};

// The line in SAN with move numbers: "1. e4 c5 2. Nf3".
std::string line_text(const std::vector<chess::Move>& line) {
  chess::Board board;
  std::string text;
  for (chess::Move m : line) {
    if (!text.empty()) text += ' ';
    if (board.side_to_move() == chess::kWhite) text += std::to_string(board.fullmove_number()) + ". ";
    text += chess::move_to_san(board, m);
    chess::UndoInfo undo;
    board.make_move(m, undo);
  }
  return text;
}

int run_info(const InfoOptions& opts) {
  struct stat st {};
  if (::stat(opts.book.c_str(), &st) != 0) {
    print_error("cannot open book " + opts.book);
    return kExitFailure;
  }
  auto book = book::open_book_file(opts.book);
  if (!book) {
    if (opts.json)
      std::puts(json::json_text(json::to_json(json::BookSummary{opts.book, static_cast<int64_t>(st.st_size),
                                                                nullptr, "", book.error().message}))
                    .c_str());
    else
      std::printf("file        %s\nsize        %lld bytes\nvalid       no: %s\n", opts.book.c_str(),
                  static_cast<long long>(st.st_size), book.error().message.c_str());
    return kExitFailure;
  }
  book::BookInfo info = book::analyse_book(*book);
  std::string line = line_text(info.longest_line);
  if (opts.json) {
    const json::BookSummary summary{opts.book, static_cast<int64_t>(st.st_size), &info, line, ""};
    std::puts(json::json_text(json::to_json(summary)).c_str());
    return kExitOk;
  }
  std::printf("file        %s\n", opts.book.c_str());
  std::printf("size        %llu bytes\n", static_cast<unsigned long long>(st.st_size));
  // An Arena or ChessBase book is converted on opening: its figures below are those of the
  // converted book.
  const book::BookFormat format = book::book_format_of(opts.book);
  if (format == book::BookFormat::kPolyglot)
    std::printf("valid       yes (size a multiple of 16, keys sorted)\n");
  else
    std::printf("valid       yes (%s, %llu bytes as Polyglot)\n",
                format == book::BookFormat::kAbk
                    ? "an Arena ABK book: its tree read whole"
                    : "a ChessBase CTG book: every page read, walked from the start",
                static_cast<unsigned long long>(book->file_size()));
  std::printf("entries     %llu (%llu with weight 0)\n", static_cast<unsigned long long>(info.entries),
              static_cast<unsigned long long>(info.zero_weight_entries));
  std::printf("positions   %llu\n", static_cast<unsigned long long>(info.positions));
  std::printf("reachable   %llu positions from the start position (the farthest %d plies away)\n",
              static_cast<unsigned long long>(info.reachable_positions), info.deepest_reachable);
  std::printf("longest     %zu plies: %s\n", info.longest_line.size(), line.c_str());
  std::printf("illegal     %llu entries with a move that is illegal where it is reached\n",
              static_cast<unsigned long long>(info.illegal_entries));
  return kExitOk;
}

void setup_info(CLI::App& root) {
  auto opts = std::make_shared<InfoOptions>();
  CLI::App* cmd = add_subcommand(root, "info", "Check a book and summarise it");
  cmd->add_option("book", opts->book, "Polyglot (.bin), Arena (.abk) or ChessBase (.ctg) book")->required();
  cmd->add_flag("--json", opts->json, "Machine-readable output");
  cmd->callback([opts] { set_exit_code(run_info(*opts)); });
}

}  // namespace

BOOKFORGE_REGISTER_COMMAND("info", setup_info);

}  // namespace bookforge::cli
