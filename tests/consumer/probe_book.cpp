// An engine's view of a book: open it, look up the start position (or the position after the
// UCI moves given), print each book move as "<uci> <weight>". Exit 1 if the book is unusable.
#include <cstdio>
#include <string>

#include "book/polyglot/probe.h"
#include "book/polyglot/reader.h"
#include "chess/san.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: probe_book BOOK [UCI moves...]\n");
    return 2;
  }
  auto book = bookforge::book::PolyglotBook::open(argv[1]);
  if (!book.ok()) {
    std::fprintf(stderr, "%s\n", book.error().message.c_str());
    return 1;
  }
  bookforge::chess::Board board;
  for (int i = 2; i < argc; ++i) {
    bookforge::chess::Move m = bookforge::chess::uci_to_move(board, argv[i]);
    if (m == bookforge::chess::Move::none()) return std::fprintf(stderr, "illegal move %s\n", argv[i]), 1;
    bookforge::chess::UndoInfo undo;
    board.make_move(m, undo);
  }
  for (const bookforge::book::ProbedMove& m : bookforge::book::probe_book(*book, board))
    std::printf("%s %u\n", bookforge::chess::move_to_uci(m.move).c_str(), unsigned(m.entry.weight));
  return 0;
}
