// Merging Polyglot books into one: the books are walked together in key order (no book is
// loaded whole), and each position's moves are combined by the chosen strategy.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "book/polyglot/reader.h"
#include "book/polyglot/writer.h"

namespace bookforge::book {

enum class MergeStrategy : uint8_t {
  kSum,   // a move's weights add up; a position whose sums pass 65535 is scaled down as a whole
  kMax,   // a move keeps its largest weight
  kFirst  // a position comes whole from the first book (in argument order) that has it
};
std::optional<MergeStrategy> parse_merge_strategy(std::string_view name);

struct MergeStats {
  uint64_t positions = 0;
  uint64_t entries = 0;
  uint64_t rescaled_positions = 0;  // positions whose summed weights had to be scaled down
};

// A move's learn value comes from the first book that has the move. Polyglot's merge-book adds
// 16-bit weights and wraps (60000 + 10000 = 4464); this never wraps.
Result<MergeStats> merge_books(const std::vector<const PolyglotBook*>& books, MergeStrategy strategy,
                               PolyglotWriter& out);

}  // namespace bookforge::book
