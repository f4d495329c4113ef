// The transposition table: what earlier searches learned about a position (bound, depth, best
// move, static eval), shared by every search thread and kept between moves of a game.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "base/result.h"
#include "chess/types.h"
#include "engine/score.h"

namespace bookforge::engine {

// How a stored score relates to the true value: exact (a PV node), a lower bound (the search
// failed high) or an upper bound (it failed low). The two bits are chosen so that
// bound & kLower / bound & kUpper test "is at least" / "is at most".
enum class Bound : uint8_t { kNone = 0, kUpper = 1, kLower = 2, kExact = 3 };
constexpr bool has_lower(Bound b) { return (uint8_t(b) & uint8_t(Bound::kLower)) != 0; }
constexpr bool has_upper(Bound b) { return (uint8_t(b) & uint8_t(Bound::kUpper)) != 0; }
// "lower", "upper" or "exact", as analyse shows a line's bound.
constexpr const char* bound_name(Bound b) {
  return b == Bound::kLower ? "lower" : b == Bound::kUpper ? "upper" : "exact";
}

// One entry, 12 bytes (Polyglot key k: the bucket comes from the high bits of k, the check
// from the low 32):
//
//   byte  0        4        6        8        10       11       12
//         +--------+--------+--------+--------+--------+--------+
//         | check  | move   | score  | eval   | depth  |gen|bnd |
//         | u32    | u16    | i16    | i16    | u8     |6b | 2b |
//         +--------+--------+--------+--------+--------+--------+
//
//   check  low 32 bits of the key (a second, independent test after the bucket index)
//   move   best or refuting move, 0 if none
//   score  search score; mate scores are stored relative to this node, not the root
//   eval   static evaluation, kScoreNone if not computed (in check)
//   depth  search depth + kDepthOffset; 0 marks an empty slot
//   gen    the search generation (6 bits, wraps); bnd: the Bound
struct TTEntry {
  uint32_t check;
  uint16_t move;
  int16_t score;
  int16_t eval;
  uint8_t depth8;
  uint8_t gen_bound;
};
static_assert(sizeof(TTEntry) == 12);

// Five entries fill one 64-byte cache line: a probe touches exactly one line.
//
//   | entry 0 | entry 1 | entry 2 | entry 3 | entry 4 | pad 4 |  = 64 bytes
struct alignas(64) TTBucket {
  static constexpr int kEntries = 5;
  TTEntry entries[kEntries];
  uint8_t padding[4];
};
static_assert(sizeof(TTBucket) == 64, "a bucket must be one cache line");

// What a probe finds, with mate scores already made relative to the probing ply.
struct TTData {
  chess::Move move;
  Score score = kScoreNone;
  Score eval = kScoreNone;
  int depth = 0;
  Bound bound = Bound::kNone;
};

// Mate scores are stored as "mate in N from this node" so that an entry reached at another
// ply (through a transposition) still means the same thing.
constexpr Score score_to_tt(Score s, int ply) {
  return s == kScoreNone ? s : s >= kScoreMateInMaxPly ? s + ply : s <= -kScoreMateInMaxPly ? s - ply : s;
}
constexpr Score score_from_tt(Score s, int ply) {
  return s == kScoreNone ? s : s >= kScoreMateInMaxPly ? s - ply : s <= -kScoreMateInMaxPly ? s + ply : s;
}

class TranspositionTable {
 public:
  // Depths from kMinDepth (quiescence) to kMaxDepth fit in the depth byte.
  static constexpr int kMinDepth = -6;
  static constexpr int kMaxDepth = 255 + kMinDepth - 1;

  explicit TranspositionTable(size_t megabytes = 16);

  // Reallocates (and so clears) the table. Fails, keeping the old table, if memory runs out.
  Status resize(size_t megabytes);
  void clear();
  size_t megabytes() const { return megabytes_; }
  size_t bucket_count() const { return bucket_count_; }

  // Called once per search (per move played): entries of older generations become the first
  // to be replaced, without clearing anything.
  void new_search() { generation_ = uint8_t((generation_ + 1) & kGenerationMask); }
  uint8_t generation() const { return generation_; }

  // Looks the key up; on a hit fills `out` (mate scores relative to `ply`) and marks the
  // entry as used by this generation.
  bool probe(uint64_t key, int ply, TTData& out);

  // Stores a result. In a bucket that already holds the key, the entry is overwritten unless
  // it is a deeper search of this generation and the new result is not exact. Otherwise the
  // entry replaced is the one of least worth: shallow and old entries go first.
  void store(uint64_t key, int ply, chess::Move move, Score score, Score eval, int depth, Bound bound);

  void prefetch(uint64_t key) const { __builtin_prefetch(bucket_for(key)); }

  // Permille of sampled entries written by the current generation (UCI "hashfull").
  int hashfull() const;

 private:
  static constexpr uint8_t kGenerationMask = 63;

  TTBucket* bucket_for(uint64_t key) const {
    return &buckets_[size_t((static_cast<unsigned __int128>(key) * bucket_count_) >> 64)];
  }
  int age_of(const TTEntry& e) const { return (generation_ - (e.gen_bound >> 2)) & kGenerationMask; }

  struct FreeDeleter {
    void operator()(TTBucket* p) const;
  };
  std::unique_ptr<TTBucket[], FreeDeleter> buckets_;
  size_t bucket_count_ = 0;
  size_t megabytes_ = 0;
  uint8_t generation_ = 0;
};

}  // namespace bookforge::engine
