// Turning a position's raw weights (games, half points, rating sums: any size) into Polyglot's
// 16-bit weights.
#pragma once

#include <algorithm>
#include <cstdint>

namespace bookforge::book {

inline constexpr uint64_t kMaxWeight = 65535;

// Weights that fit are kept as they are (so a `--rules polyglot` book has Polyglot's exact
// 2W+D). Otherwise the whole position is scaled once, proportionally, so that its heaviest
// move gets 65535: integer arithmetic only, so the result is the same everywhere, and never 0
// for a kept move (a weight that would round to 0 becomes 1). Never wraps around.
inline uint16_t scale_weight(uint64_t raw, uint64_t position_max) {
  if (position_max <= kMaxWeight) return uint16_t(std::clamp<uint64_t>(raw, 1, kMaxWeight));
  uint64_t scaled = uint64_t((static_cast<unsigned __int128>(raw) * kMaxWeight) / position_max);
  return uint16_t(std::clamp<uint64_t>(scaled, 1, kMaxWeight));
}

}  // namespace bookforge::book
