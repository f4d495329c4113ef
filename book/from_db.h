// `build --from-db`: a store standing in for the PGN files it was made from. Its rows come out
// in (key, move) order as the entry stream the selection rules read, so the book equals the
// one built from the same PGN files with the same filters and rules.
//
// Counting happened when the files were added, so the settings that shaped the counts come
// from the store: the rules' max-ply and repeat counting are set to the store's. Given
// explicitly with other values they are an error (the counts cannot be redone without the
// PGN), and so are filters other than the store's.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "book/selection_rules.h"
#include "counts/entry.h"
#include "store/store.h"

namespace bookforge::store {

struct FromDbRequest {
  bool max_ply_given = false;  // --max-ply on the command line (or in the config file)
  bool repeats_given = false;  // --count-repeats likewise
  std::string filters;         // pgn::GameFilter::describe() of the filter flags given; "" = none
};

struct StoreForBuild {
  StoreForBuild(Store s, CountingSettings c, uint64_t g)
      : store(std::move(s)), settings(std::move(c)), games(g) {}
  Store store;
  CountingSettings settings;
  uint64_t games = 0;                 // accepted games over all sources
  std::vector<std::string> warnings;  // e.g. sources forced in with other settings
};

// Opens the store and makes `rules` count the way the store was counted (see above).
Result<std::unique_ptr<StoreForBuild>> open_store_for_build(const std::string& path,
                                                            const FromDbRequest& request,
                                                            book::SelectionRules& rules);

}  // namespace bookforge::store
