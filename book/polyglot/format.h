// The Polyglot opening book format: a file of 16-byte big-endian entries
//
//   byte 0                8        10       12               16
//        +----------------+--------+--------+----------------+
//        | key u64        | move   | weight | learn u32      |
//        +----------------+--------+--------+----------------+
//
// sorted by key (so a reader can search it), then, by convention, by weight descending and
// move ascending. key: the position's Polyglot Zobrist key. move: to file (bits 0-2), to rank
// (3-5), from file (6-8), from rank (9-11), promotion piece (12-14: 0 none, 1 knight .. 4
// queen); castling is stored as the king taking its own rook (e1h1, e1a1, e8h8, e8a8).
// weight: relative frequency within the position. learn: left 0 by book builders.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace bookforge::book {

inline constexpr size_t kPolyglotEntrySize = 16;

struct PolyglotEntry {
  uint64_t key = 0;
  uint16_t move = 0;
  uint16_t weight = 0;
  uint32_t learn = 0;

  bool operator==(const PolyglotEntry&) const = default;
};

// The order entries are written in: key ascending, weight descending, move ascending.
inline bool book_order(const PolyglotEntry& a, const PolyglotEntry& b) {
  if (a.key != b.key) return a.key < b.key;
  if (a.weight != b.weight) return a.weight > b.weight;
  return a.move < b.move;
}

inline uint64_t load_be64(const unsigned char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native == std::endian::little) v = __builtin_bswap64(v);
  return v;
}

inline void encode_entry(const PolyglotEntry& e, unsigned char* out) {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<unsigned char>(e.key >> (56 - 8 * i));
  out[8] = static_cast<unsigned char>(e.move >> 8);
  out[9] = static_cast<unsigned char>(e.move);
  out[10] = static_cast<unsigned char>(e.weight >> 8);
  out[11] = static_cast<unsigned char>(e.weight);
  for (int i = 0; i < 4; ++i) out[12 + i] = static_cast<unsigned char>(e.learn >> (24 - 8 * i));
}

inline PolyglotEntry decode_entry(const unsigned char* p) {
  PolyglotEntry e;
  e.key = load_be64(p);
  e.move = uint16_t((p[8] << 8) | p[9]);
  e.weight = uint16_t((p[10] << 8) | p[11]);
  e.learn = (uint32_t(p[12]) << 24) | (uint32_t(p[13]) << 16) | (uint32_t(p[14]) << 8) | p[15];
  return e;
}

}  // namespace bookforge::book
