// Opening a book file of any format bookforge reads: Polyglot (.bin) is mapped as it is; an
// Arena book (.abk, or any file that starts with ABK's signature and is not named .bin) is read
// and converted in memory (book/abk/to_polyglot.h), so every book command serves both alike.
#pragma once

#include <string>

#include "base/result.h"
#include "book/polyglot/reader.h"

namespace bookforge::book {

Result<PolyglotBook> open_book_file(const std::string& path);

}  // namespace bookforge::book
