// One varint record of a run (counts/run_file.h) and of a counts file
// (counts/counts_file.h): a tally entry as
//
//   varint  key - previous key (0 for another move of the same position)
//   u16     move (little-endian)
//   varint  slice (0 in a book's tally)
//   varint  every counted field, in the order of BOOKFORGE_COUNTED_FIELDS (counted_fields.h)
//
// One encoding for both, so that a counts file is a spilled run made durable.
#pragma once

#include <cstddef>
#include <cstdint>

#include "counts/entry.h"
#include "counts/varint.h"

namespace bookforge::counts {

// The most bytes a record takes: the move and its varints (the key delta, the slice and one per
// counted field).
inline constexpr size_t kMaxRunRecord = 2 + (2 + kCountedFieldCount) * kMaxVarintBytes;

// Writes `e` at `out` (room for kMaxRunRecord bytes), its key as a delta from `previous_key`;
// returns the bytes written.
inline size_t put_run_record(uint8_t* out, const TallyEntry& e, uint64_t previous_key) {
  size_t n = put_varint(out, e.key - previous_key);
  out[n++] = uint8_t(e.move);
  out[n++] = uint8_t(e.move >> 8);
  n += put_varint(out + n, e.slice);
#define BOOKFORGE_PUT(name, type, merge, column, one_game, without_slot) n += put_varint(out + n, e.name);
  BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_PUT)
#undef BOOKFORGE_PUT
  return n;
}

// Reads a record at `p` (moved past it) into `e`, its key `previous_key` plus the delta; false,
// with `p` and e's key and move untouched, if the record does not end before `end`.
inline bool get_run_record(const uint8_t*& p, const uint8_t* end, TallyEntry& e, uint64_t previous_key) {
  const uint8_t* q = p;
  bool ok = true;
  auto varint = [&]() -> uint64_t {
    uint64_t value = 0;
    if (get_varint(q, end, value)) return value;
    ok = false;
    return 0;
  };
  const uint64_t delta = varint();
  if (end - q < 2) ok = false;
  const uint16_t move = ok ? uint16_t(q[0] | (q[1] << 8)) : 0;
  q += ok ? 2 : 0;
  e.slice = uint32_t(varint());
  // Into the entry as they come; the entry is only complete (and the position moved on) if the
  // whole record was there.
#define BOOKFORGE_GET(name, type, merge, column, one_game, without_slot) e.name = type(varint());
  BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_GET)
#undef BOOKFORGE_GET
  if (!ok) return false;
  p = q;
  e.key = previous_key + delta;
  e.move = move;
  return true;
}

}  // namespace bookforge::counts
