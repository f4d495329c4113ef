// A set of game fingerprints (counts/game_fingerprint.h) that every reading worker inserts into
// at once: the first worker to insert a fingerprint learns it is new, every later one that
// it is a copy.
//
// Layout: 256 shards chosen by the fingerprint's top byte, each an open-addressing table of
// 64-bit fingerprints (0 marks a free slot; fingerprints are never 0) with linear probing,
// under its own mutex. The fingerprints are hashes, so the shards fill evenly and workers
// rarely wait on one another. A table doubles before it is half full: about 16 to 32 bytes a
// game.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <vector>

namespace bookforge::counts {

class FingerprintSet {
 public:
  // True when `fingerprint` was not in the set (it is now). Safe from any thread.
  bool insert(uint64_t fingerprint);

 private:
  struct Shard {
    mutable std::mutex mutex;
    std::vector<uint64_t> slots;  // a power of two in size, or empty
    uint64_t used = 0;
  };
  static void grow(Shard& shard);

  std::array<Shard, 256> shards_;
};

}  // namespace bookforge::counts
