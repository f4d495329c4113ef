// The varints of the tally's run files and of the store's slices: 7 bits per byte, low bits
// first, the high bit set on every byte but the last.
#pragma once

#include <cstddef>
#include <cstdint>

namespace bookforge::counts {

inline constexpr size_t kMaxVarintBytes = 10;  // a 64-bit value

// Writes `value` at `out`; returns the bytes written.
inline size_t put_varint(uint8_t* out, uint64_t value) {
  size_t n = 0;
  while (value >= 0x80) {
    out[n++] = uint8_t(value) | 0x80;
    value >>= 7;
  }
  out[n++] = uint8_t(value);
  return n;
}

// Reads a varint at `p` (moved past it); false if it does not end before `end` or within 64 bits.
inline bool get_varint(const uint8_t*& p, const uint8_t* end, uint64_t& value) {
  value = 0;
  for (int shift = 0; p < end && shift < 64; shift += 7) {
    const uint8_t byte = *p++;
    value |= uint64_t(byte & 0x7f) << shift;
    if (!(byte & 0x80)) return true;
  }
  return false;
}

}  // namespace bookforge::counts
