// The bench: a fixed set of positions searched in turn to a fixed depth by one thread, from a
// fresh engine (empty transposition table and histories). The total node count is a signature
// of the search: it changes only when the search or the evaluation changes, so a
// commit that changes either says its new count ("Bench: N") and updates the count that
// tests/engine/bench_test.cpp pins.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

#include "base/result.h"

namespace bookforge::engine {

inline constexpr int kBenchDepth = 11;
inline constexpr size_t kBenchHashMb = 16;

struct BenchSettings {
  int depth = kBenchDepth;
  size_t hash_mb = kBenchHashMb;  // the table size changes what it keeps, hence the count
};

// One position of the bench once searched.
struct BenchPosition {
  size_t number = 0;  // 1-based, in bench_positions() order
  std::string_view fen;
  uint64_t nodes = 0;
};

// The start position and positions sampled from games: openings, middlegames and endings.
std::span<const std::string_view> bench_positions();

// Searches every bench position in order with one engine (the table carries over from one
// position to the next, as in a game) and returns the total node count. `on_position` is
// called after each search. An Error only if a position does not parse.
Result<uint64_t> run_bench(const BenchSettings& settings,
                           const std::function<void(const BenchPosition&)>& on_position = {});

}  // namespace bookforge::engine
