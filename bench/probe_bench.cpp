// Probes per second on a Polyglot book: bookforge's reader (mmap, interpolation search on the
// big-endian keys in the file) against a plain std::lower_bound over the same keys already
// decoded into a std::vector in memory.
//
//   BOOKFORGE_BENCH_BOOK=book.bin build/bin/bench_probe
//
// Without BOOKFORGE_BENCH_BOOK the largest book under ../shared/data/polyglot is used.
// bench/build_memory.sh builds a large book and runs this on it.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <vector>

#include <benchmark/benchmark.h>

#include "book/polyglot/reader.h"

namespace {

using bookforge::book::PolyglotBook;

std::string book_path() {
  if (const char* env = std::getenv("BOOKFORGE_BENCH_BOOK"); env && *env) return env;
  std::string best;
  uintmax_t best_size = 0;
  std::error_code ec;
  for (const auto& f : std::filesystem::recursive_directory_iterator(BOOKFORGE_SHARED_DATA "/polyglot", ec))
    if (f.path().extension() == ".bin" && f.file_size() > best_size)
      best = f.path().string(), best_size = f.file_size();
  return best;
}

struct Fixture {
  Fixture() {
    std::string path = book_path();
    auto opened = PolyglotBook::open(path);
    if (!opened.ok()) {
      std::fprintf(stderr, "cannot open a book to probe: %s\n",
                   opened.ok() ? "" : opened.error().message.c_str());
      std::exit(1);
    }
    book = std::make_unique<PolyglotBook>(std::move(*opened));
    std::fprintf(stderr, "book %s: %zu entries\n", path.c_str(), book->size());
    for (size_t i = 0; i < book->size(); ++i) keys.push_back(book->key_at(i));
    // Probes: keys that are in the book (random entries), and random keys that are not.
    std::mt19937_64 rng(42);
    for (int i = 0; i < 1 << 16; ++i) hits.push_back(keys[rng() % keys.size()]);
    for (int i = 0; i < 1 << 16; ++i) misses.push_back(rng());
  }
  std::unique_ptr<PolyglotBook> book;
  std::vector<uint64_t> keys, hits, misses;
};

Fixture& fixture() {
  static Fixture f;
  return f;
}

void run_book(benchmark::State& state, const std::vector<uint64_t>& probes) {
  const PolyglotBook& book = *fixture().book;
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(book.range(probes[i]));
    i = (i + 1) & (probes.size() - 1);
  }
  state.SetItemsProcessed(state.iterations());
}

void run_vector(benchmark::State& state, const std::vector<uint64_t>& probes) {
  const std::vector<uint64_t>& keys = fixture().keys;
  size_t i = 0;
  for (auto _ : state) {
    auto first = std::lower_bound(keys.begin(), keys.end(), probes[i]);
    auto last = first;
    while (last != keys.end() && *last == probes[i]) ++last;
    benchmark::DoNotOptimize(first);
    benchmark::DoNotOptimize(last);
    i = (i + 1) & (probes.size() - 1);
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_BookProbeHit(benchmark::State& state) { run_book(state, fixture().hits); }
void BM_LowerBoundHit(benchmark::State& state) { run_vector(state, fixture().hits); }
void BM_BookProbeMiss(benchmark::State& state) { run_book(state, fixture().misses); }
void BM_LowerBoundMiss(benchmark::State& state) { run_vector(state, fixture().misses); }

BENCHMARK(BM_BookProbeHit);
BENCHMARK(BM_LowerBoundHit);
BENCHMARK(BM_BookProbeMiss);
BENCHMARK(BM_LowerBoundMiss);

}  // namespace

BENCHMARK_MAIN();
