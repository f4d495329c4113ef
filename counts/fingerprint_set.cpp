#include "counts/fingerprint_set.h"

#include <cassert>

namespace bookforge::counts {
namespace {

constexpr size_t kFirstShardSlots = 64;

// The slot a fingerprint starts probing at. The top byte chose the shard, so the low bits
// (uniform, as in any hash) choose the slot.
size_t home_slot(uint64_t fingerprint, size_t slots) { return size_t(fingerprint) & (slots - 1); }

// Puts a fingerprint known to be absent into a table with a free slot.
void place(std::vector<uint64_t>& slots, uint64_t fingerprint) {
  for (size_t i = home_slot(fingerprint, slots.size());; i = (i + 1) & (slots.size() - 1))
    if (slots[i] == 0) {
      slots[i] = fingerprint;
      return;
    }
}

}  // namespace

void FingerprintSet::grow(Shard& shard) {
  std::vector<uint64_t> bigger(shard.slots.empty() ? kFirstShardSlots : shard.slots.size() * 2, 0);
  for (uint64_t fingerprint : shard.slots)
    if (fingerprint != 0) place(bigger, fingerprint);
  shard.slots = std::move(bigger);
}

bool FingerprintSet::insert(uint64_t fingerprint) {
  assert(fingerprint != 0);
  Shard& shard = shards_[fingerprint >> 56];
  std::lock_guard<std::mutex> lock(shard.mutex);
  if (2 * (shard.used + 1) > shard.slots.size()) grow(shard);
  const size_t mask = shard.slots.size() - 1;
  for (size_t i = home_slot(fingerprint, shard.slots.size());; i = (i + 1) & mask) {
    if (shard.slots[i] == fingerprint) return false;
    if (shard.slots[i] == 0) {
      shard.slots[i] = fingerprint;
      ++shard.used;
      return true;
    }
  }
}

}  // namespace bookforge::counts
