// `db game`: a stored game's PGN, read back from the source it was added from. The game is
// found by its number in the source (the chunker numbers games the way the add's reading did),
// and the source's decompressed content is hashed on the way: a file that was moved, or whose
// content is not what was added, is an error rather than another game's text.
#pragma once

#include <cstdint>
#include <string>

#include "book/store/store.h"
#include "engine/result.h"

namespace bookforge::store {

// The text of game `number` (1-based) of `source`, as it lies in the file.
Result<std::string> read_game_text(const SourceRecord& source, uint64_t number);

}  // namespace bookforge::store
