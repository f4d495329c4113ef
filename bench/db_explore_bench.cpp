// `db explore` latency: the explorer query (rows of one position, SAN of every move, the
// statistics) over 10,000 random positions of a store.
//
// The positions are random walks through the store itself: from the start position, a move
// chosen uniformly among the moves the store knows, for a length drawn uniformly from 0..39
// plies (a walk stops early where the store knows no move). Uniform choices reach the rare
// corners of the tree as often as the main lines.
//
// The store: $BOOKFORGE_DB_BENCH_STORE (e.g. made by bench/db_add.sh from pgnmentor part 1),
// or else one made here from data-samples/. The player explorer's players:
// $BOOKFORGE_DB_BENCH_PLAYERS, names separated by '|' (e.g. "Nakamura,Hi|Carlsen,M" for the
// pgnmentor store, its most prolific), or else the samples' two busiest. Run:
// build/bin/bench_db_explore
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <vector>

#include "chess/san.h"
#include "store/add.h"
#include "store/explore.h"
#include "store/history.h"
#include "store/player_explore.h"
#include "store/store.h"

namespace bookforge {
namespace {

namespace fs = std::filesystem;

constexpr int kPositions = 10'000;
constexpr int kMaxWalk = 40;

struct RemoveOnExit {
  std::vector<fs::path> paths;
  ~RemoveOnExit() {
    for (const fs::path& p : paths) fs::remove(p);
  }
};

struct Fixture {
  std::string path;
  bool made_here = false;
  std::unique_ptr<store::Store> store;
  std::vector<chess::Board> positions;
};

std::string sample_store() {
  std::string path =
      (fs::temp_directory_path() / ("bookforge_explore." + std::to_string(::getpid()) + ".sqlite")).string();
  store::StoreAddOptions add;
  add.db_path = path;
  add.pipeline.inputs = {std::string(BOOKFORGE_SOURCE_DIR) + "/data-samples/twic0920-2000.pgn",
                         std::string(BOOKFORGE_SOURCE_DIR) + "/data-samples/lichess-2016-05-1000.pgn"};
  add.pipeline.max_ply = 60;
  add.tally.tmp_dir = fs::temp_directory_path().string();
  if (!store::store_add(add)) std::abort();
  return path;
}

Fixture& fixture() {
  static Fixture f = [] {
    Fixture out;
    const char* given = std::getenv("BOOKFORGE_DB_BENCH_STORE");
    out.made_here = !(given && *given);
    out.path = out.made_here ? sample_store() : given;
    Result<store::Store> s = store::Store::open(out.path, false);
    if (!s) {
      std::fprintf(stderr, "%s\n", s.error().message.c_str());
      std::exit(1);
    }
    out.store = std::make_unique<store::Store>(std::move(*s));
    std::mt19937_64 rng(2024);
    while (int(out.positions.size()) < kPositions) {
      chess::Board board;
      const int length = int(rng() % kMaxWalk);
      for (int ply = 0; ply < length; ++ply) {
        Result<store::Exploration> x = store::explore(*out.store, board);
        if (!x || x->moves.empty()) break;
        chess::UndoInfo undo;
        board.make_move(x->moves[rng() % x->moves.size()].move, undo);
      }
      out.positions.push_back(board);
    }
    // Removed when the program ends (a copy of the path: it may outlive the fixture).
    static RemoveOnExit cleanup{out.made_here ? std::vector<fs::path>{out.path} : std::vector<fs::path>{}};
    return out;
  }();
  return f;
}

// One explorer query per iteration, cycling through the positions.
void Explore(benchmark::State& state) {
  Fixture& f = fixture();
  size_t i = 0, moves = 0;
  for (auto _ : state) {
    Result<store::Exploration> x = store::explore(*f.store, f.positions[i]);
    moves += x->moves.size();
    benchmark::DoNotOptimize(x);
    if (++i == f.positions.size()) i = 0;
  }
  state.counters["moves_per_query"] = double(moves) / double(state.iterations());
}

// The SQL part alone: the rows of one position.
void RowsOnly(benchmark::State& state) {
  Fixture& f = fixture();
  size_t i = 0;
  for (auto _ : state) {
    auto rows = f.store->moves_at(f.positions[i].key());
    benchmark::DoNotOptimize(rows);
    if (++i == f.positions.size()) i = 0;
  }
}

// All 10,000 positions once per iteration, each query timed: mean, median and 99th percentile.
void AllPositionsTimed(benchmark::State& state) {
  Fixture& f = fixture();
  std::vector<double> micros(f.positions.size());
  for (auto _ : state) {
    for (size_t i = 0; i < f.positions.size(); ++i) {
      auto start = std::chrono::steady_clock::now();
      Result<store::Exploration> x = store::explore(*f.store, f.positions[i]);
      benchmark::DoNotOptimize(x);
      micros[i] = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    }
  }
  std::sort(micros.begin(), micros.end());
  double sum = 0;
  for (double m : micros) sum += m;
  state.counters["mean_us"] = sum / double(micros.size());
  state.counters["p50_us"] = micros[micros.size() / 2];
  state.counters["p99_us"] = micros[micros.size() * 99 / 100];
  state.counters["max_us"] = micros.back();
}

// The filters of the slice benchmark (counts/slice.h): none, the example (blitz and
// rapid, 2000 to 2499, 2019 to 2023), one broad band, one decade.
const counts::SliceFilter& slice_filter(int64_t index) {
  static const std::vector<counts::SliceFilter> filters = [] {
    std::vector<counts::SliceFilter> out{counts::SliceFilter{}};
    for (auto [speeds, ratings, since, until] :
         {std::array<const char*, 4>{"blitz,rapid", "2000,2200", "2019-01", "2023-12"},
          std::array<const char*, 4>{"", "2500", "", ""},
          std::array<const char*, 4>{"", "", "1990", "1999"}}) {
      Result<counts::SliceFilter> f = counts::parse_slice_filter(speeds, ratings, since, until);
      if (!f) std::abort();
      out.push_back(*f);
    }
    return out;
  }();
  return filters[size_t(index)];
}

// The explorer query under a slice filter (argument: its index above): the start position 200
// times, then 100 random positions of the tree twice each; each query timed, the 99th
// percentile and the largest of each group.
void SlicesTimed(benchmark::State& state) {
  Fixture& f = fixture();
  const counts::SliceFilter& filter = slice_filter(state.range(0));
  std::vector<double> start_us, random_us;
  auto timed = [&](const chess::Board& board, std::vector<double>& into) {
    auto begin = std::chrono::steady_clock::now();
    Result<store::Exploration> x = store::explore(*f.store, board, filter);
    if (!x) std::abort();
    benchmark::DoNotOptimize(x);
    into.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - begin).count());
  };
  for (auto _ : state) {
    for (int i = 0; i < 200; ++i) timed(chess::Board(), start_us);
    for (int round = 0; round < 2; ++round)
      for (size_t i = 0; i < 100; ++i) timed(f.positions[i], random_us);
  }
  auto p99 = [](std::vector<double>& v) {
    std::sort(v.begin(), v.end());
    return v[v.size() * 99 / 100];
  };
  state.counters["start_p99_us"] = p99(start_us);
  state.counters["start_max_us"] = start_us.back();
  state.counters["random_p99_us"] = p99(random_us);
  state.counters["random_max_us"] = random_us.back();
  state.SetLabel(filter.describe());
}

// The 50th and 99th percentiles and the largest of the queries timed.
void percentiles(std::vector<double> micros, benchmark::State& state) {
  std::sort(micros.begin(), micros.end());
  state.counters["p50_us"] = micros[micros.size() / 2];
  state.counters["p99_us"] = micros[micros.size() * 99 / 100];
  state.counters["max_us"] = micros.back();
}

// The history of a position (store/history.h): the start position 100 times and 1,000 random
// positions, each query timed (target: p99 <= 20 ms).
void HistoryTimed(benchmark::State& state) {
  Fixture& f = fixture();
  std::vector<double> micros;
  auto timed = [&](const chess::Board& board) {
    auto begin = std::chrono::steady_clock::now();
    Result<store::History> h = store::position_history(*f.store, board);
    if (!h) std::abort();
    benchmark::DoNotOptimize(h);
    micros.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - begin).count());
  };
  for (auto _ : state) {
    for (int i = 0; i < 100; ++i) timed(chess::Board());
    for (size_t i = 0; i < 1000; ++i) timed(f.positions[i]);
  }
  percentiles(micros, state);
}

// The player explorer (store/player_explore.h): for each player and colour, 40 positions of the
// player's own tree (random walks of 0 to 15 of the player's moves, the start position among
// them), each query timed (target: p99 <= 20 ms).
void PlayerTimed(benchmark::State& state) {
  Fixture& f = fixture();
  const char* given = std::getenv("BOOKFORGE_DB_BENCH_PLAYERS");
  std::string names = given && *given ? given : "german11|Podolchenko,E";
  std::vector<store::PlayerQuery> queries;
  for (size_t at = 0; at <= names.size();) {
    size_t end = std::min(names.find('|', at), names.size());
    for (bool white : {true, false}) queries.push_back({names.substr(at, end - at), white, {}, 0});
    at = end + 1;
  }
  std::mt19937_64 rng(29);
  std::vector<std::pair<const store::PlayerQuery*, chess::Board>> asked;
  for (const store::PlayerQuery& q : queries)
    for (int i = 0; i < 40; ++i) {
      chess::Board board;
      const int length = int(rng() % 16);
      for (int ply = 0; ply < length; ++ply) {
        Result<store::PlayerExploration> x = store::explore_player(*f.store, board, q);
        if (!x || x->moves.empty()) break;
        chess::UndoInfo undo;
        board.make_move(x->moves[rng() % x->moves.size()].move, undo);
      }
      asked.push_back({&q, board});
    }
  std::vector<double> micros;
  uint64_t games = 0;
  for (auto _ : state)
    for (const auto& [q, board] : asked) {
      auto begin = std::chrono::steady_clock::now();
      Result<store::PlayerExploration> x = store::explore_player(*f.store, board, *q);
      if (!x) std::abort();
      games += x->player_games;
      micros.push_back(
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - begin).count());
    }
  state.counters["games_walked_per_query"] = double(games) / double(micros.size());
  percentiles(micros, state);
}

BENCHMARK(Explore)->Unit(benchmark::kMicrosecond);
BENCHMARK(RowsOnly)->Unit(benchmark::kMicrosecond);
BENCHMARK(AllPositionsTimed)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(SlicesTimed)->DenseRange(0, 3)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(HistoryTimed)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(PlayerTimed)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace bookforge

BENCHMARK_MAIN();
