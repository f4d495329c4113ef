#include "book/from_db.h"

namespace bookforge::store {

Result<std::unique_ptr<StoreForBuild>> open_store_for_build(const std::string& path,
                                                            const FromDbRequest& request,
                                                            book::SelectionRules& rules) {
  Result<Store> store = Store::open(path, false);
  if (!store) return store.error();
  Result<std::optional<CountingSettings>> recorded = store->settings();
  if (!recorded) return recorded.error();
  if (!*recorded) return Error{path + ": the store is empty (nothing was ever added to it)"};
  const CountingSettings& settings = **recorded;

  const std::string cannot = path + " was counted with " + settings.describe() + "; ";
  if (request.max_ply_given && rules.max_ply != settings.max_ply)
    return Error{cannot + "--max-ply " + std::to_string(rules.max_ply) +
                 " needs the PGN files again (leave --max-ply out to use the store's)"};
  if (request.repeats_given && rules.count_repeats != settings.count_repeats)
    return Error{cannot + "--count-repeats needs the PGN files again"};
  if (!request.filters.empty() && request.filters != settings.filters)
    return Error{cannot + "the filters given (" + request.filters +
                 ") need the PGN files again (leave them out to use the store's)"};

  std::vector<std::string> warnings;
  if (rules.count_repeats != settings.count_repeats)
    warnings.push_back(std::string("the store counts repeated moves ") +
                       (settings.count_repeats ? "every time" : "once per game") +
                       ", unlike the rules preset: using the store's counts");
  rules.max_ply = settings.max_ply;
  rules.count_repeats = settings.count_repeats;

  Result<std::vector<SourceRecord>> sources = store->sources();
  if (!sources) return sources.error();
  uint64_t games = 0;
  for (const SourceRecord& source : *sources) {
    games += source.games;
    if (source.settings != settings)
      warnings.push_back(source.name + " was added (with --force) using " + source.settings.describe() +
                         ": its counts are in the book too");
  }

  auto out = std::make_unique<StoreForBuild>(std::move(*store), settings, games);
  out->warnings = std::move(warnings);
  return out;
}

}  // namespace bookforge::store
