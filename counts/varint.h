// The varints of the tally's run files and of the store's slices: 7 bits per byte, low bits
// first, the high bit set on every byte but the last.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

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

// The same bytes as put_varint, for values that are often several bytes long (a key's delta
// from the one before: five to seven bytes for Zobrist keys), with no branch per byte: the
// loop's exit, at a length that changes from one value to the next, was mispredicted about
// once a record. Writes 8 bytes at `out` whatever the length: `out` needs kMaxVarintBytes of
// room.
inline size_t put_long_varint(uint8_t* out, uint64_t value) {
  if (std::endian::native != std::endian::little || (value >> 56) != 0) return put_varint(out, value);
  const size_t n = (size_t(std::bit_width(value | 1)) + 6) / 7;
  uint64_t spread = 0;
  for (int i = 0; i < 8; ++i) spread |= ((value >> (7 * i)) & 0x7f) << (8 * i);
  spread |= 0x8080808080808080ULL & ((uint64_t(1) << (8 * (n - 1))) - 1);
  std::memcpy(out, &spread, 8);
  return n;
}

// What get_varint reads, for values that are often several bytes long: the varint's end found
// in one 8-byte load rather than a byte at a time where the input allows.
inline bool get_long_varint(const uint8_t*& p, const uint8_t* end, uint64_t& value) {
  if (std::endian::native != std::endian::little || end - p < 8) return get_varint(p, end, value);
  uint64_t word;
  std::memcpy(&word, p, 8);
  const uint64_t stops = ~word & 0x8080808080808080ULL;
  if (stops == 0) return get_varint(p, end, value);  // nine or ten bytes
  const int n = std::countr_zero(stops) / 8 + 1;
  value = 0;
  for (int i = 0; i < 8; ++i) value |= ((word >> (8 * i)) & 0x7f) << (7 * i);
  // Only the varint's own septets: the bytes after it are cut off.
  value &= n == 8 ? ~uint64_t(0) : (uint64_t(1) << (7 * n)) - 1;
  p += n;
  return true;
}

}  // namespace bookforge::counts
