// Memory sizes as users write them ("256M", "1.5G", "65536") and the default tally budget.
#pragma once

#include <cstdint>
#include <string_view>

#include "base/result.h"

namespace bookforge::cli {

// A byte count: a number (fractions allowed) with an optional K, M, G or T suffix (powers of
// 1024, case-insensitive, an optional trailing "B" or "iB").
Result<uint64_t> parse_memory_size(std::string_view text);

// A quarter of the physical memory (256 MiB if it cannot be determined).
uint64_t default_memory_budget();

// The peak resident set size of this process so far, in bytes (getrusage).
uint64_t peak_resident_bytes();

}  // namespace bookforge::cli
