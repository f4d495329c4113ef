// ChessBase's CTG opening book format, as the public descriptions of it give it (the
// chessprogramming wiki's CTG page and the unofficial specification it cites). A book is
// NAME.ctg (the data), NAME.cto (an index from a hash of a position to its page) and NAME.ctb
// (the index's bounds); bookforge reads the .ctg alone (book/ctg/reader.h says why).
//
// Every integer is big-endian. The .ctg is a run of 4096-byte pages: page 0 is a header (the
// number of games, not read here), pages 1.. hold records:
//
//   page:   u16 records | u16 bytes used (from the page's start) | record | record | ...
//
//   record: position                           moves                          statistics
//           +--------+----------------------+  +--------+-----------------+  +-----------+
//           | header | board code ... flags |  | length | (code, note) .. |  | 33 bytes  |
//           +--------+----------------------+  +--------+-----------------+  +-----------+
//            u8: bits 0-4 the position's        u8: 1 + 2 per move           see below
//            length in bytes (header included),
//            bit 5 en passant, bit 6 castling
//
// Positions are stored with the side to move as White: a position with Black to move is
// turned upside down and its colours swapped. When no side may castle and the side to move's
// king stands on files a-d, the board is also mirrored (files a <-> h). book/ctg/board_code.h
// draws the board code and its flags, book/ctg/move_code.h the moves.
//
// statistics (offsets in the 33 bytes): games u24 @0, wins of the side to move u24 @3, wins
// of the other side u24 @6, draws u24 @9, unknown u32 @12, rated games u24 @16, their ratings'
// sum u32 @19, performance games u24 @23, their sum u32 @26, recommendation u8 @30 (bit 0x40:
// the move that leads here is marked red, "do not play"; bit 0x80: green, "play it"; real books
// also set bits 0x04, 0x10 and 0x20, which no description explains and bookforge ignores),
// unknown u8 @31, comment u8 @32.
#pragma once

#include <cstddef>
#include <cstdint>

namespace bookforge::book {

inline constexpr size_t kCtgPageSize = 4096;
inline constexpr size_t kCtgPageHeaderSize = 4;
inline constexpr size_t kCtgStatisticsSize = 33;
inline constexpr uint8_t kCtgLengthMask = 0x1f;
inline constexpr uint8_t kCtgHasEnPassant = 0x20;
inline constexpr uint8_t kCtgHasCastling = 0x40;
inline constexpr uint8_t kCtgMarkedRed = 0x40;
inline constexpr uint8_t kCtgMarkedGreen = 0x80;

// The big-endian integer of `bytes` (1..4) bytes at p.
inline uint32_t load_ctg_uint(const unsigned char* p, int bytes) {
  uint32_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | p[i];
  return v;
}

// A position's games, from its statistics block.
struct CtgStatistics {
  uint32_t games = 0;
  uint32_t wins = 0;    // won by the side to move in the position
  uint32_t losses = 0;  // won by the other side
  uint32_t draws = 0;
  uint8_t recommendation = 0;  // kCtgMarkedRed, kCtgMarkedGreen or 0
};

inline CtgStatistics decode_ctg_statistics(const unsigned char* p) {
  return CtgStatistics{load_ctg_uint(p, 3), load_ctg_uint(p + 3, 3), load_ctg_uint(p + 6, 3),
                       load_ctg_uint(p + 9, 3), p[30]};
}

// A move's annotation byte (the "note" beside its code).
enum CtgAnnotation : uint8_t {
  kCtgNoAnnotation = 0x00,
  kCtgGood = 0x01,         // !
  kCtgMistake = 0x02,      // ?
  kCtgExcellent = 0x03,    // !!
  kCtgBlunder = 0x04,      // ??
  kCtgInteresting = 0x05,  // !?
  kCtgDubious = 0x06,      // ?!
  kCtgOnlyMove = 0x08,
  kCtgZugzwang = 0x16,
};

}  // namespace bookforge::book
