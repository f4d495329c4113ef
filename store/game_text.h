// `db game`: a stored game's PGN, read back from the source it was added from. The game is
// found at its byte offset in the source's (decompressed) content, and replayed to check that
// it is the game added: its fingerprint must match. A file that was moved, or in which another
// game lies there now, is an error rather than another game's text; games appended to a file
// since do not matter.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "store/store.h"

namespace bookforge::store {

// The text of `game`, from `source`, as it lies in the file.
Result<std::string> read_game_text(const SourceRecord& source, const GameRecord& game);

// A game's id as db explore and the explorer show it (16 hex digits of its fingerprint), and
// back; nullopt for text that is not one.
std::string game_id(uint64_t fingerprint);
std::optional<uint64_t> parse_game_id(std::string_view id);

// The text of the game with this fingerprint, read back from its source; nullopt when the
// store holds no such game.
Result<std::optional<std::string>> stored_game_text(Store& store, uint64_t fingerprint);

}  // namespace bookforge::store
