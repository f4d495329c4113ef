#include "counts/repeat_filter.h"

#include <algorithm>
#include <bit>

namespace bookforge::counts {

const uint8_t* RepeatFilter::mark(std::span<const pgn::PlyRecord> plies) {
  flags_.assign(plies.size(), 0);
  // At most half full, so probes stay short.
  size_t wanted = std::bit_ceil(std::max<size_t>(2 * plies.size(), 256));
  if (slots_.size() < wanted || ++generation_ == 0) {
    slots_.assign(std::max(wanted, slots_.size()), Slot{});
    generation_ = 1;
  }
  const size_t mask = slots_.size() - 1;
  for (size_t i = 0; i < plies.size(); ++i) {
    const pgn::PlyRecord& p = plies[i];
    size_t at = size_t((p.key ^ (uint64_t(p.move) << 48)) >> 7) & mask;
    for (;; at = (at + 1) & mask) {
      Slot& s = slots_[at];
      if (s.generation != generation_) {
        s = Slot{p.key, p.move, generation_};
        break;
      }
      if (s.key == p.key && s.move == p.move) {
        flags_[i] = 1;
        break;
      }
    }
  }
  return flags_.data();
}

}  // namespace bookforge::counts
