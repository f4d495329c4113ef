// One record of a run (counts/run_file.h) and of a counts file (counts/counts_file.h): a tally
// entry as
//
//   varint  key - previous key (0 for another move of the same position)
//   u16     move (little-endian)
//   u8      shape: bit 0 a slice follows (else slice 0); bit 1 the one-game form
//   varint  the slice, if shape says so (0 in a book's tally)
//   then, in the one-game form (an entry that is one game's counts, TallyEntry::as_one_game:
//   most entries of a large tally):
//     shape bits 2-3 the outcome (pgn::Outcome), bit 4 an Elo follows, bit 5 an opponent's Elo
//     varint  the mover's Elo, varint the opponent's Elo (each if shape says so), varint the ply
//   else every counted field as a varint, in the order of BOOKFORGE_COUNTED_FIELDS
//   (counted_fields.h).
//
// One encoding for both, so that a counts file is a spilled run made durable. The one-game form
// takes a third fewer bytes (the shuffle between a cluster's machines) and is read back faster.
#pragma once

#include <cstddef>
#include <cstdint>

#include "counts/entry.h"
#include "counts/varint.h"

namespace bookforge::counts {

// The most bytes a record takes: the move, the shape and the varints (the key delta, the slice
// and one per counted field).
inline constexpr size_t kMaxRunRecord = 3 + (2 + kCountedFieldCount) * kMaxVarintBytes;

namespace run_shape {
inline constexpr uint8_t kSlice = 1;
inline constexpr uint8_t kOneGame = 2;
inline constexpr int kOutcomeShift = 2;
inline constexpr uint8_t kElo = 16;
inline constexpr uint8_t kOpponentElo = 32;
}  // namespace run_shape

// Writes `e` at `out` (room for kMaxRunRecord bytes), its key as a delta from `previous_key`;
// returns the bytes written.
inline size_t put_run_record(uint8_t* out, const TallyEntry& e, uint64_t previous_key) {
  size_t n = put_long_varint(out, e.key - previous_key);
  out[n++] = uint8_t(e.move);
  out[n++] = uint8_t(e.move >> 8);
  uint8_t& shape = out[n++];
  shape = e.slice ? run_shape::kSlice : 0;
  if (e.slice) n += put_varint(out + n, e.slice);
  if (GamePly g; e.as_one_game(g)) {
    shape |= run_shape::kOneGame | uint8_t(uint8_t(g.outcome) << run_shape::kOutcomeShift);
    if (g.elo) {
      shape |= run_shape::kElo;
      n += put_varint(out + n, g.elo);
    }
    if (g.opponent_elo) {
      shape |= run_shape::kOpponentElo;
      n += put_varint(out + n, g.opponent_elo);
    }
    return n + put_varint(out + n, g.game_ply);
  }
#define BOOKFORGE_PUT(name, type, merge, column, one_game, without_slot) n += put_varint(out + n, e.name);
  BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_PUT)
#undef BOOKFORGE_PUT
  return n;
}

// Reads a record at `p` (moved past it) into `e`, its key `previous_key` plus the delta; false,
// with `p` and e's key and move untouched, if the record does not end before `end` or is not
// one put_run_record writes.
inline bool get_run_record(const uint8_t*& p, const uint8_t* end, TallyEntry& e, uint64_t previous_key) {
  const uint8_t* q = p;
  bool ok = true;
  auto varint = [&]() -> uint64_t {
    uint64_t value = 0;
    if (get_varint(q, end, value)) return value;
    ok = false;
    return 0;
  };
  uint64_t delta = 0;
  if (!get_long_varint(q, end, delta)) return false;
  if (end - q < 3) return false;
  const uint16_t move = uint16_t(q[0] | (q[1] << 8));
  const uint8_t shape = q[2];
  q += 3;
  const uint32_t slice = (shape & run_shape::kSlice) ? uint32_t(varint()) : 0;
  if (shape & run_shape::kOneGame) {
    if (shape & 0xc0) return false;
    GamePly g;
    g.outcome = pgn::Outcome((shape >> run_shape::kOutcomeShift) & 3);
    g.elo = (shape & run_shape::kElo) ? uint16_t(varint()) : 0;
    g.opponent_elo = (shape & run_shape::kOpponentElo) ? uint16_t(varint()) : 0;
    g.game_ply = uint16_t(varint());
    g.slice = slice;
    if (!ok) return false;
    e = TallyEntry::of_game(g);
  } else {
    if (shape & ~(run_shape::kSlice)) return false;
      // Into the entry as they come; the entry is only complete (and the position moved on) if
      // the whole record was there.
#define BOOKFORGE_GET(name, type, merge, column, one_game, without_slot) e.name = type(varint());
    BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_GET)
#undef BOOKFORGE_GET
    if (!ok) return false;
    e.slice = slice;
  }
  p = q;
  e.key = previous_key + delta;
  e.move = move;
  return true;
}

}  // namespace bookforge::counts
