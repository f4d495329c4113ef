// A list of game fingerprints (counts/game_fingerprint.h) on disk: the games a set of counts
// holds (counts/counts_set.h), so that games counted in two sets are found (empty for a book's
// counts that keep duplicates: nothing is looked up there), and the skip lists that tell
// `count --skip-games` which games another set already holds.
//
//   offset      bytes  what
//   0           8      magic "BFGAMES\n"
//   8           4      format version, u32 little-endian (1)
//   12          4      0
//   16          8      the set's id (CountsHeader::set_id), u64 little-endian; 0 for a skip list
//   24          8      n, the number of fingerprints
//   32          8 n    the fingerprints, ascending, each once, u64 little-endian
//   32 + 8 n    8      checksum: ContentHasher (base/content_hash.h) of every byte before it
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"

namespace bookforge::counts {

struct GameList {
  uint64_t set_id = 0;
  std::vector<uint64_t> fingerprints;  // ascending, each once
};

// Writes the list under a temporary name and puts it in place when complete.
Status write_game_list(const std::string& path, const GameList& list);
// Reads and checks a list; errors name the file.
Result<GameList> read_game_list(const std::string& path);

}  // namespace bookforge::counts
