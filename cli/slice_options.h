// The slice flags of the commands that read a store (db explore, build --from-db, serve's
// default): --speeds, --ratings, --since, --until (store/slice.h says what they select).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "base/result.h"
#include "store/slice.h"

namespace bookforge::cli {

struct SliceFlags {
  std::string speeds;
  std::string ratings;
  std::string since;
  std::string until;
};

void add_slice_options(CLI::App& command, SliceFlags& flags);

// The filter the flags give; an error naming the flag and the bad item.
Result<store::SliceFilter> slice_filter(const SliceFlags& flags);

}  // namespace bookforge::cli
