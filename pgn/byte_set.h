// Finding the next byte of a small set, 32 bytes at a time. The scanners spend most of their
// time skipping ordinary movetext to the next byte that matters (a line break, a brace, a
// dash...), so this loop is the reader's inner loop.
//
// Set membership by nibble lookup: every byte b of the set gets the bit of its high nibble's
// group; lo[b & 15] holds the bits of all groups having that low nibble, hi[b >> 4] the bit of
// b's group. b is in the set iff lo[b & 15] & hi[b >> 4] != 0 -- exact as long as the set uses
// at most 8 distinct high nibbles. With AVX2 both lookups are one vpshufb each; vpshufb looks
// up within each 128-bit lane, so the tables are stored twice over, ready to load as they are
// (a search is often a few bytes long: building the tables would cost as much as the search).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace bookforge::pgn {

struct ByteSet {
  alignas(32) std::array<uint8_t, 32> lo{};  // lo[i] == lo[i + 16]
  alignas(32) std::array<uint8_t, 32> hi{};  // hi[i] == hi[i + 16]
  std::array<bool, 256> member{};
};

// `bytes` may use at most 8 distinct high nibbles (checked at compile time through a throw).
consteval ByteSet make_byte_set(std::string_view bytes) {
  ByteSet set;
  std::array<int, 16> group{};
  group.fill(-1);
  int groups = 0;
  for (char ch : bytes) {
    auto b = static_cast<uint8_t>(ch);
    int h = b >> 4;
    if (group[size_t(h)] < 0) {
      if (groups == 8) throw "a ByteSet supports at most 8 distinct high nibbles";
      group[size_t(h)] = groups++;
    }
    for (size_t lane : {0, 16}) {
      set.hi[lane + size_t(h)] = uint8_t(1u << group[size_t(h)]);
      set.lo[lane + (b & 15)] = uint8_t(set.lo[lane + (b & 15)] | (1u << group[size_t(h)]));
    }
    set.member[b] = true;
  }
  return set;
}

// Bit i is set iff p[i] belongs to `set`; p[0] .. p[31] must be readable.
inline uint32_t members_of_32(const unsigned char* p, const ByteSet& set) {
#if defined(__AVX2__)
  const __m256i lo_table = _mm256_load_si256(reinterpret_cast<const __m256i*>(set.lo.data()));
  const __m256i hi_table = _mm256_load_si256(reinterpret_cast<const __m256i*>(set.hi.data()));
  const __m256i nibble = _mm256_set1_epi8(0x0f);
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i lo = _mm256_shuffle_epi8(lo_table, _mm256_and_si256(v, nibble));
  const __m256i hi = _mm256_shuffle_epi8(hi_table, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble));
  const __m256i miss = _mm256_cmpeq_epi8(_mm256_and_si256(lo, hi), _mm256_setzero_si256());
  return ~uint32_t(_mm256_movemask_epi8(miss));
#else
  uint32_t bits = 0;
  for (unsigned i = 0; i < 32; ++i) bits |= uint32_t(set.member[p[i]]) << i;
  return bits;
#endif
}

// The first byte in [p, end) that belongs to `set`, or end.
inline const unsigned char* find_first_in(const unsigned char* p, const unsigned char* end,
                                          const ByteSet& set) {
#if defined(__AVX2__)
  for (; end - p >= 32; p += 32)
    if (const uint32_t members = members_of_32(p, set)) return p + __builtin_ctz(members);
#endif
  while (p < end && !set.member[*p]) ++p;
  return p;
}

}  // namespace bookforge::pgn
