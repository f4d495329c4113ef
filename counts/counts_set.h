// A set of counts: the folder one `bookforge count` (or one merge of sets) writes, holding the
// counts of its games cut into K key ranges, one counts file each (counts/counts_file.h),
// and the fingerprints of the games it counted (counts/game_list_file.h):
//
//   DIR/range-0000-of-0004.counts   keys k with k * 4 / 2^64 == 0
//   ...
//   DIR/range-0003-of-0004.counts
//   DIR/games.fingerprints
//
// Every file is written under a temporary name and renamed when complete, the game list last:
// a set whose run failed or was killed lacks files, and is refused naming what is missing.
//
// Sets are summed range by range: for sets of different K, the ranges of the smallest K are the
// groups, each the k-way merge of every set's files that fall in it (their key ranges line up,
// K being powers of two). Sets combine only if they were counted with the same options and no
// part of an input was counted in two of them; a game in two sets (the same game in two files)
// would be counted twice, which one machine never does (counts/duplicate_filter.h): such sets are
// refused, and count --skip-games with the lists of skip_lists() leaves the copies out.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "counts/counts_file.h"
#include "counts/game_list_file.h"

namespace bookforge::counts {

inline constexpr const char* kGameListFile = "games.fingerprints";

// "range-0003-of-0064.counts"
std::string range_file_name(uint32_t range, uint32_t partitions);

// Whether `partitions` is a power of two from 1 to kMaxCountsPartitions; an error says so.
Status check_partitions(uint32_t partitions);

// Makes `dir` ready for a new set: created if missing (its parent must exist), else it must be
// an empty folder.
Status prepare_set_folder(const std::string& dir);

// Makes `dir` ready for one range of a set written by several tasks: created if missing (a
// task racing another to create it is fine); it may hold the other ranges' files.
Status prepare_range_folder(const std::string& dir);

struct CountsSet {
  std::string dir;
  CountsHeader header;  // its first range's (every range's is the same but for the range)
  uint64_t id = 0;      // header.set_id()
  std::vector<std::unique_ptr<CountsFileReader>> ranges;  // range r's file; read once
};

// Opens a set and checks that it is whole: every range file there, of the same set, and its
// game list. Errors name the folder and the file or range at fault.
Result<CountsSet> open_counts_set(const std::string& dir);

// The sets can be added up: counted with the same options (else the error names the option and
// both values) and no part of an input counted in two of them (naming both sets).
Status check_sets_combine(const std::vector<CountsSet>& sets);

// Opens the sets (in order), each whole, and checks they can be added up (check_sets_combine);
// their games are not compared (that reads every game list).
Result<std::vector<CountsSet>> open_combinable_sets(const std::vector<std::string>& dirs);

// The header of the sets' sum: their options, every input, the games added up (partitions and
// range left as they were).
CountsHeader combined_header(const std::vector<CountsSet>& sets);

// The games counted in more than one set, found from the sets' game lists.
struct SharedGames {
  uint64_t games = 0;  // fingerprints in two sets or more
  std::string which;   // "A and B share 12, A and C share 3" (the first few pairs)
  // Per set, the games an earlier set (in the order given) holds: what it should skip.
  std::vector<GameList> skip;
  GameList all;  // every set's games, each once
};
Result<SharedGames> shared_games(const std::vector<CountsSet>& sets);

// Opens the sets (in order) and checks they can be added up, games in two sets included: an
// error says how many and which sets share them, unless the sets count every copy. With
// `games`, what shared_games() finds is put there (compared once, whether the sets count every
// copy or not).
Result<std::vector<CountsSet>> open_sets_to_add(const std::vector<std::string>& dirs,
                                                SharedGames* games = nullptr);

// The sets' entries summed, in `groups` streams (a power of two, at most every set's K): stream
// g holds the keys k with k * groups / 2^64 == g, in (key, move, slice) order. Takes the sets'
// range files.
std::vector<std::unique_ptr<EntryStream>> summed_groups(std::vector<CountsSet>& sets, uint32_t groups);

// The smallest K among the sets.
uint32_t finest_common_partitions(const std::vector<CountsSet>& sets);

// Writes `entries` (sorted, within ranges [first, end) of header.partitions) as the files of
// those ranges in `dir`, an empty range as a file without entries. Returns the bytes written.
Result<uint64_t> write_ranges(const std::string& dir, CountsHeader header, EntryStream& entries,
                              uint32_t first, uint32_t end);

// Completes a set whose ranges were written one task each (write_ranges): checks that every
// range of `header` is in `dir` and of this set, then writes its game list. An error names the
// range missing or foreign, and leaves no game list.
Status finish_set(const std::string& dir, const CountsHeader& header, const GameList& games);

// Writes a set's ranges from `groups` streams (as summed_groups makes them) on up to `threads`
// threads, then `more` files if given (returning their bytes), then its game list. Returns the
// bytes of the range files and of the others.
Result<uint64_t> write_set(const std::string& dir, const CountsHeader& header,
                           std::vector<std::unique_ptr<EntryStream>> groups, const GameList& games,
                           int threads, const std::function<Result<uint64_t>()>& more = {});

}  // namespace bookforge::counts
