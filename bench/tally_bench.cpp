// The book side of `bookforge build`, without the PGN reader: the games of a database are
// replayed once into memory, then every benchmark counts them into a fresh Tally and goes on
// as far as its name says.
//
//   Tally/count/W          counting only, W workers on W threads (as the pipeline runs them)
//   Tally/merge/W          counting, then the final merge drained entry by entry
//   Tally/book/W           book::build, as `bookforge build` runs it (counting, merge, the rules
//                          on every partition, the writer), with the games fed from memory
//
// The differences between the three are what the merge and the rules cost. The rules are
// `--rules polyglot --max-ply 40` (what bench/build_polyglot.sh compares with polyglot
// make-book), the memory is the build's default (the tables start small and spill).
//
//   BOOKFORGE_BENCH_PGN=games.pgn[.zst] build/bin/bench_tally
//
// Without BOOKFORGE_BENCH_PGN, pgnmentor part 1 from ../shared/data is used.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include <benchmark/benchmark.h>

#include "book/build.h"
#include "counts/tally.h"
#include "pgn/pipeline.h"

namespace {

using namespace bookforge;

std::string pgn_path() {
  if (const char* env = std::getenv("BOOKFORGE_BENCH_PGN"); env && *env) return env;
  return BOOKFORGE_SHARED_DATA "/games/pgnmentor_players_part1_Alekhine-Ivanchuk.pgn.zst";
}

// Every accepted game, replayed, with its plies in one shared array.
struct Games {
  struct Game {
    pgn::ReplayedGame header;
    size_t first_ply = 0;
  };
  std::vector<Game> games;
  std::vector<pgn::PlyRecord> plies;

  pgn::ReplayedGame at(size_t i) const {
    pgn::ReplayedGame g = games[i].header;
    size_t end = i + 1 < games.size() ? games[i + 1].first_ply : plies.size();
    g.plies = std::span<const pgn::PlyRecord>(plies.data() + games[i].first_ply, end - games[i].first_ply);
    return g;
  }
};

class Collector : public pgn::GameSink {
 public:
  explicit Collector(Games& games) : games_(games) {}
  void on_game(const pgn::ReplayedGame& game) override {
    Games::Game g{game, games_.plies.size()};
    g.header.plies = {};
    games_.games.push_back(g);
    games_.plies.insert(games_.plies.end(), game.plies.begin(), game.plies.end());
  }

 private:
  Games& games_;
};

const Games& games() {
  static const Games loaded = [] {
    Games g;
    pgn::PipelineOptions options;
    options.inputs = {pgn_path()};
    options.threads = 1;
    options.max_ply = 40;
    Collector collector(g);
    auto read = pgn::read_games(options, [&](int) -> pgn::GameSink& { return collector; });
    if (!read) {
      std::fprintf(stderr, "cannot read %s: %s\n", pgn_path().c_str(), read.error().message.c_str());
      std::exit(1);
    }
    std::fprintf(stderr, "%zu games, %zu plies from %s\n", g.games.size(), g.plies.size(),
                 pgn_path().c_str());
    return g;
  }();
  return loaded;
}

counts::TallyOptions tally_options(int workers) {
  counts::TallyOptions options;
  options.workers = workers;
  options.count_repeats = true;  // --rules polyglot
  options.ratings = false;
  options.memory_budget = uint64_t(4) << 30;
  options.tmp_dir = std::filesystem::temp_directory_path().string();
  return options;
}

// Worker w hands games w, w + W, w + 2W, ... to sink(w) on a thread of its own.
pgn::ReadStats replay(int workers, const pgn::SinkFactory& sink) {
  const Games& g = games();
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w)
    threads.emplace_back([&, w] {
      pgn::GameSink& to = sink(w);
      for (size_t i = size_t(w); i < g.games.size(); i += size_t(workers)) to.on_game(g.at(i));
      to.on_end();
    });
  for (std::thread& t : threads) t.join();
  pgn::ReadStats stats;
  stats.games = stats.accepted = g.games.size();
  stats.plies = g.plies.size();
  return stats;
}

std::unique_ptr<counts::Tally> make_tally(benchmark::State& state, int workers) {
  auto tally = counts::Tally::create(tally_options(workers));
  if (!tally) {
    state.SkipWithError(tally.error().message.c_str());
    return nullptr;
  }
  return std::move(*tally);
}

void count(counts::Tally& tally, int workers) {
  replay(workers, [&](int w) -> pgn::GameSink& { return tally.sink(w); });
}

void BM_Count(benchmark::State& state) {
  const int workers = int(state.range(0));
  games();
  for (auto _ : state) {
    auto tally = make_tally(state, workers);
    if (!tally) break;
    count(*tally, workers);
    benchmark::DoNotOptimize(tally->stats().plies);
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(games().plies.size()));
}

void BM_Merge(benchmark::State& state) {
  const int workers = int(state.range(0));
  games();
  uint64_t entries = 0;
  for (auto _ : state) {
    auto tally = make_tally(state, workers);
    if (!tally) break;
    count(*tally, workers);
    auto stream = tally->finish();
    if (!stream) state.SkipWithError(stream.error().message.c_str());
    counts::TallyEntry e;
    entries = 0;
    while ((*stream)->next(e)) ++entries;
  }
  state.counters["entries"] = double(entries);
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(games().plies.size()));
}

// What `bookforge build` runs after reading: book::build itself, fed from memory.
void BM_Book(benchmark::State& state) {
  const int workers = int(state.range(0));
  games();
  book::BuildRequest request;
  request.output = (std::filesystem::temp_directory_path() / "bookforge-tally-bench.bin").string();
  request.games = replay;
  request.pipeline.threads = workers;
  request.rules = book::SelectionRules::polyglot();
  request.rules.max_ply = 40;
  request.tally = tally_options(workers);
  uint64_t written = 0;
  for (auto _ : state) {
    auto built = book::build(request);
    if (!built) {
      state.SkipWithError(built.error().message.c_str());
      break;
    }
    written = built->outcome.stages.back().entries;
  }
  std::filesystem::remove(request.output);
  state.counters["entries"] = double(written);
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(games().plies.size()));
}

}  // namespace

BENCHMARK(BM_Count)->Name("Tally/count")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Merge)->Name("Tally/merge")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Book)->Name("Tally/book")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
