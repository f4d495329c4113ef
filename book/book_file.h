// Opening a book file of any format bookforge reads: Polyglot (.bin) is mapped as it is; an
// Arena book (.abk, or any file that starts with ABK's signature and is not named .bin) and a
// ChessBase book (.ctg: its .cto and .ctb are not needed) are read and converted in memory
// (book/abk/to_polyglot.h, book/ctg/to_polyglot.h), so every book command serves them alike.
#pragma once

#include <string>

#include "base/result.h"
#include "book/polyglot/reader.h"

namespace bookforge::book {

enum class BookFormat { kPolyglot, kAbk, kCtg };

// The format open_book_file reads `path` as: by its extension, or ABK's signature.
BookFormat book_format_of(const std::string& path);

Result<PolyglotBook> open_book_file(const std::string& path);

}  // namespace bookforge::book
