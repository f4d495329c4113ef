// Arena's ABK opening book format: a tree of moves stored as fixed-size little-endian entries.
//
//   entries 0..899 (bytes 0..25199): the header; it starts with "\x03ABK" (the rest holds the
//                                    author, a comment and Arena's book settings, not read here)
//   entry 900 onwards:               the moves, 28 bytes each
//
//   byte 0    1    2       3         4        8        12       16       20           24
//        +----+----+-------+---------+--------+--------+--------+--------+------------+------------+
//        |from| to | promo |priority | games  | wins   | losses | ply    | first child|next sibling|
//        +----+----+-------+---------+--------+--------+--------+--------+------------+------------+
//         u8   u8   i8      u8        u32      u32      u32      u32      i32          i32
//
// Entry 900 is the first move of the start position. An entry's siblings (its next-sibling
// chain) are the other moves of the same position; its first child and that child's siblings
// are the replies in the position after it. A link is an entry number; -1 means none.
// Squares count a1 = 0, b1 = 1, ..., h8 = 63; castling is the king's move (e1g1). promo: 0 for
// none, else 1 rook, 2 knight, 3 bishop, 4 queen, negative for Black in some writers (the sign
// is ignored). wins and losses count games won and lost, as the book's author recorded them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "base/little_endian.h"

namespace bookforge::book {

inline constexpr size_t kAbkEntrySize = 28;
inline constexpr int32_t kAbkFirstEntry = 900;
inline constexpr size_t kAbkHeaderSize = kAbkEntrySize * kAbkFirstEntry;
inline constexpr int32_t kAbkNoLink = -1;
inline constexpr unsigned char kAbkMagic[4] = {0x03, 'A', 'B', 'K'};

struct AbkEntry {
  uint8_t from = 0;
  uint8_t to = 0;
  int8_t promotion = 0;
  uint8_t priority = 0;
  uint32_t games = 0;
  uint32_t wins = 0;
  uint32_t losses = 0;
  uint32_t ply = 0;
  int32_t first_child = kAbkNoLink;
  int32_t next_sibling = kAbkNoLink;
};

inline AbkEntry decode_abk_entry(const unsigned char* p) {
  AbkEntry e;
  e.from = p[0];
  e.to = p[1];
  e.promotion = static_cast<int8_t>(p[2]);
  e.priority = p[3];
  e.games = uint32_t(load_le(p + 4, 4));
  e.wins = uint32_t(load_le(p + 8, 4));
  e.losses = uint32_t(load_le(p + 12, 4));
  e.ply = uint32_t(load_le(p + 16, 4));
  e.first_child = static_cast<int32_t>(uint32_t(load_le(p + 20, 4)));
  e.next_sibling = static_cast<int32_t>(uint32_t(load_le(p + 24, 4)));
  return e;
}

inline bool has_abk_magic(std::span<const unsigned char> bytes) {
  return bytes.size() >= 4 && bytes[0] == kAbkMagic[0] && bytes[1] == kAbkMagic[1] &&
         bytes[2] == kAbkMagic[2] && bytes[3] == kAbkMagic[3];
}

}  // namespace bookforge::book
