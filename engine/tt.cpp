#include "engine/tt.h"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace bookforge::engine {

void TranspositionTable::FreeDeleter::operator()(TTBucket* p) const { std::free(p); }

TranspositionTable::TranspositionTable(size_t megabytes) {
  Status s = resize(megabytes);
  if (!s.ok()) (void)resize(1);
}

Status TranspositionTable::resize(size_t megabytes) {
  if (megabytes == 0) megabytes = 1;
  const size_t bytes = megabytes << 20;
  const size_t count = bytes / sizeof(TTBucket);
  // Probes land on random cache lines all over the table: with 4 KB pages nearly every one is
  // a TLB miss. Aligned to 2 MB, the kernel can back the table with huge pages (a hint only).
  constexpr size_t kHugePage = 2u << 20;
  const size_t alignment = bytes >= kHugePage ? kHugePage : alignof(TTBucket);
  auto* raw = static_cast<TTBucket*>(std::aligned_alloc(alignment, bytes));
  if (!raw) return Error{"cannot allocate a transposition table of " + std::to_string(megabytes) + " MB"};
#ifdef MADV_HUGEPAGE
  if (bytes >= kHugePage) (void)::madvise(raw, bytes, MADV_HUGEPAGE);
#endif
  buckets_.reset(raw);
  bucket_count_ = count;
  megabytes_ = megabytes;
  clear();
  return ok_status();
}

void TranspositionTable::clear() {
  std::memset(static_cast<void*>(buckets_.get()), 0, bucket_count_ * sizeof(TTBucket));
  generation_ = 0;
}

bool TranspositionTable::probe(uint64_t key, int ply, TTData& out) {
  const uint32_t check = uint32_t(key);
  for (TTEntry& e : bucket_for(key)->entries) {
    if (e.depth8 == 0 || e.check != check) continue;
    out.move = chess::Move(e.move);
    out.score = score_from_tt(e.score, ply);
    out.eval = e.eval;
    out.depth = e.depth8 + kMinDepth - 1;
    out.bound = Bound(e.gen_bound & 3);
    e.gen_bound = uint8_t((generation_ << 2) | (e.gen_bound & 3));
    return true;
  }
  return false;
}

void TranspositionTable::store(uint64_t key, int ply, chess::Move move, Score score, Score eval, int depth,
                               Bound bound) {
  const uint32_t check = uint32_t(key);
  if (depth < kMinDepth) depth = kMinDepth;
  if (depth > kMaxDepth) depth = kMaxDepth;
  const uint8_t depth8 = uint8_t(depth - kMinDepth + 1);
  TTBucket* bucket = bucket_for(key);

  TTEntry* target = nullptr;
  for (TTEntry& e : bucket->entries) {
    if (e.depth8 == 0 || e.check != check) continue;
    // A deeper result of this search is worth more than a shallower bound; keep it, but
    // learn a move if it had none.
    if (bound != Bound::kExact && age_of(e) == 0 && depth8 + 2 < e.depth8) {
      if (e.move == 0) e.move = move.raw();
      return;
    }
    if (!move.is_ok()) move = chess::Move(e.move);
    target = &e;
    break;
  }
  if (!target) {
    // Worth of an entry: its depth, minus 8 plies for every generation it has aged.
    int least = 1 << 30;
    for (TTEntry& e : bucket->entries) {
      const int worth = e.depth8 == 0 ? -(1 << 20) : int(e.depth8) - 8 * age_of(e);
      if (worth < least) {
        least = worth;
        target = &e;
      }
    }
  }
  target->check = check;
  target->move = move.raw();
  target->score = int16_t(score_to_tt(score, ply));
  target->eval = int16_t(eval);
  target->depth8 = depth8;
  target->gen_bound = uint8_t((generation_ << 2) | uint8_t(bound));
}

int TranspositionTable::hashfull() const {
  constexpr size_t kSampleBuckets = 200;  // 1000 entries
  const size_t n = bucket_count_ < kSampleBuckets ? bucket_count_ : kSampleBuckets;
  int used = 0;
  for (size_t i = 0; i < n; ++i)
    for (const TTEntry& e : buckets_[i].entries) used += e.depth8 != 0 && age_of(e) == 0;
  return int(used * 1000 / (n * TTBucket::kEntries));
}

}  // namespace bookforge::engine
