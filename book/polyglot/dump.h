// The tree of a book, walked depth first from the start position in book order (heaviest move
// first), written as PGN with variations or as one record per (position, move) in CSV or JSON.
// A position already written is not expanded again (a transposition); PGN marks the spot with
// a {transposition} comment.
//
// With a side, the dump is that side's repertoire: in its positions the book's moves; in the
// opponent's positions every legal reply that leads to a position the book has moves for (a
// book built with --side has no entries for the opponent's positions at all). Records are
// written for the side's positions only.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "book/polyglot/reader.h"
#include "chess/types.h"

namespace bookforge::book {

enum class DumpFormat : uint8_t { kPgn, kJson, kCsv };
std::optional<DumpFormat> parse_dump_format(std::string_view name);

struct DumpOptions {
  DumpFormat format = DumpFormat::kPgn;
  std::optional<chess::Color> side;
  int max_ply = 0;        // lines stop after this many plies (0: no limit)
  std::string book_name;  // for the PGN header
};

struct DumpStats {
  uint64_t positions = 0;  // positions whose moves were written
  uint64_t moves = 0;
};

DumpStats dump_book(const PolyglotBook& book, const DumpOptions& options, std::ostream& out);

}  // namespace bookforge::book
