// The moves each loaded Polyglot book holds for a position (the answer of /api/books).
#pragma once

#include <span>
#include <string>

#include "book/polyglot/reader.h"
#include "chess/board.h"
#include "json/json.h"

namespace bookforge::serve {

struct NamedBook {
  std::string name;  // the file name, as the page shows it
  book::PolyglotBook book;
};

// {"books": [{"name", "moves": [{"uci", "san", "weight", "learn" (json/book_json.h), "share"}]}]},
// one entry per book in the order given; moves by weight, heaviest first; share is the percent
// of the legal moves' total weight. Entries whose move is not legal here (a key collision) are
// left out.
json::Json book_moves_json(std::span<const NamedBook> books, const chess::Board& board);

}  // namespace bookforge::serve
