// The content hash that tells the store whether a file was already added: 64 bits over bytes.
// A source records the hash of its decompressed content, so the same games in gzip and in zstd
// are one source; the hash of the file as it lies on disk is checked too, before reading, and
// finds plain files (and stores made before content hashes) at once.
//
// Our own design, built for speed rather than against attackers: four independent lanes each
// absorb one 8-byte little-endian word of every 32-byte stripe with a bijective step
//
//     lane = (lane ^ word) * kOdd;  lane ^= lane >> 29
//
// (a multiplication by an odd constant and an xor-shift are both invertible, so no input word
// can erase what a lane has seen). The lanes are then combined with the tail bytes and the
// length and run through a final avalanche. The four lanes keep four multiplications in flight,
// so hashing runs at several GB/s, far faster than the file can be parsed.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "base/result.h"

namespace bookforge {

class ContentHasher {
 public:
  void update(std::span<const unsigned char> bytes);
  uint64_t digest() const;

 private:
  void absorb_stripe(const unsigned char* stripe);

  uint64_t lanes_[4] = {0x9e3779b97f4a7c15ULL, 0xc2b2ae3d27d4eb4fULL, 0x165667b19e3779f9ULL,
                        0x27d4eb2f165667c5ULL};
  unsigned char pending_[32] = {};
  size_t pending_size_ = 0;
  uint64_t length_ = 0;
};

struct FileDigest {
  uint64_t size = 0;
  uint64_t hash = 0;
  std::string hex() const;  // 16 lowercase hex digits, as stored in the sources table
};

// Reads the whole file once; errors name the file.
Result<FileDigest> digest_file(const std::string& path);

}  // namespace bookforge
