// The one check every numeric flag goes through, on the command line and in --config files:
//
//   cmd->add_option("--min-games", r.min_games, "...")->transform(whole_number(0, kNoLimit));
//   cmd->add_option("--min-score", r.min_score, "...")->transform(decimal_number(0, 100));
//
// Whatever is not a plain decimal number within the range is rejected before CLI11 converts
// it, with the flag's name, the value and the range: "--min-games: expected a whole number in
// 0..18446744073709551615, got '-1'" (exit code 2). On its own CLI11 would read "-1" into an
// unsigned flag as 2^64 - 1, "010" as octal 8, and describe an open range up to the largest
// double, in 309 digits.
#pragma once

#include <cstdint>
#include <limits>

#include <CLI/CLI.hpp>

namespace bookforge::cli {

// The upper end of a range without one (shown as its digits for whole numbers).
inline constexpr uint64_t kNoLimit = std::numeric_limits<uint64_t>::max();

// Whole numbers in min..max, rewritten in plain decimal for CLI11 to convert. The range must
// fit the option's type (the check is made on the text, before the conversion).
CLI::Validator whole_number(int64_t min, uint64_t max);

// Decimal numbers (a fraction or an exponent allowed) in min..max; no upper end by default.
CLI::Validator decimal_number(double min, double max = std::numeric_limits<double>::infinity());

}  // namespace bookforge::cli
