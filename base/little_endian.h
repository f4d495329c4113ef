// Integers as little-endian bytes, the order bookforge's own files use (counts files, page
// checksums) and the content hash reads its words in; one loop each, which compilers turn into a
// single load or store.
#pragma once

#include <cstdint>

namespace bookforge {

// The `bytes` (1..8) bytes at p, lowest first.
inline uint64_t load_le(const unsigned char* p, int bytes = 8) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// The low `bytes` (1..8) bytes of v at p, lowest first.
inline void store_le(unsigned char* p, uint64_t v, int bytes = 8) {
  for (int i = 0; i < bytes; ++i) p[i] = static_cast<unsigned char>(v >> (8 * i));
}

}  // namespace bookforge
