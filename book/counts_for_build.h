// `build --from-counts`: sets of counts (counts/counts_set.h) standing in for the PGN files
// they were counted from, as from_db (book/from_db.h) lets a store stand in. The sets are
// summed range by range (a k-way merge of their files per range, one stream per range for the
// rules to take on every core), each (key, move)'s slices summed, and only what a build's own
// tally keeps is left (the mover's ratings when the rules weigh by rating): the rules see the
// stream a build of the same PGN would have made, and the book is byte-identical to it, however
// the games were split into sets and whatever K each set has.
//
// Counting happened in `count`, so the settings that shaped the counts come from the sets: the
// rules' max-ply, repeat counting and duplicate handling become theirs. Given explicitly with
// other values they are an error, and so are game filters (count applied them).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "book/selection_rules.h"
#include "counts/counts_set.h"

namespace bookforge::book {

struct FromCountsRequest {
  // Only keys k with k * ranges / 2^64 == range (ranges a power of two, at most every set's K):
  // the books of ranges 0 .. ranges-1, concatenated in order, are the whole book, since a
  // Polyglot book is sorted by key and every rule but reachability looks at one position.
  uint32_t range = 0;
  uint32_t ranges = 1;
  bool max_ply_given = false;     // --max-ply on the command line (or in the config file)
  bool repeats_given = false;     // --count-repeats likewise
  bool duplicates_given = false;  // --keep-duplicates or --drop-duplicates
  bool filters_given = false;     // any game filter
};

struct CountsForBuild {
  counts::CountsHeader total;  // the sets' headers summed
  std::vector<std::string> warnings;
  std::vector<std::unique_ptr<counts::EntryStream>> streams;  // in key order: what the rules read
};

// Opens and checks the sets and makes `rules` count the way they were counted (see above).
Result<std::unique_ptr<CountsForBuild>> open_counts_for_build(const std::vector<std::string>& dirs,
                                                              const FromCountsRequest& request,
                                                              SelectionRules& rules);

}  // namespace bookforge::book
