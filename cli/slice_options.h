// The slice flags of the commands that read a store (db explore, build --from-db, serve's
// default, db novelty): --speeds, --ratings, --since, --until (counts/slice.h says what they
// select).
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "base/result.h"
#include "counts/slice.h"
#include "store/store.h"

namespace bookforge::cli {

struct SliceFlags {
  std::string speeds;
  std::string ratings;
  std::string since;
  std::string until;
  std::string variant;  // standard, chess960 or any; empty: the store's own (counts::query_variants)
};

// --speeds --ratings --since --until, and --variant unless the command has it already (build's
// game filter names the variant of --from-db too).
void add_slice_options(CLI::App& command, SliceFlags& flags, bool variant_flag = true);

// The filter the flags give; an error naming the flag and the bad item.
Result<counts::SliceFilter> slice_filter(const SliceFlags& flags);

// What the commands that query a store start from: the filter of the flags and the store at
// `db_path`, opened read-only. kExitOk, or the exit code to return after the message this
// printed (usage for a bad flag, failure for the store).
// `answered`, when given, gets the variants the query answers with (counts::answered_variants).
int open_store_with_filter(const std::string& db_path, const SliceFlags& flags, counts::SliceFilter& filter,
                           std::optional<store::Store>& db, pgn::VariantSet* answered = nullptr);

}  // namespace bookforge::cli
