// Integers as little-endian bytes, the order bookforge's own files use (counts files, game
// lists, page checksums, evaluation networks) and the content hash reads its words in; one loop
// each, which compilers turn into a single load or store.
#pragma once

#include <cstdint>
#include <string>

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

// The same, for bytes held as chars (a file read into a std::string).
inline uint64_t load_le(const char* p, int bytes = 8) {
  return load_le(reinterpret_cast<const unsigned char*>(p), bytes);
}

// The low `bytes` (1..8) bytes of v appended to `out`, lowest first.
inline void append_le(std::string& out, uint64_t v, int bytes = 8) {
  unsigned char le[8];
  store_le(le, v, bytes);
  out.append(reinterpret_cast<const char*>(le), static_cast<size_t>(bytes));
}

}  // namespace bookforge
