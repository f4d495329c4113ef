// Perft speed (nodes/s) on the standard test positions. The side-by-side comparison with
// Stockfish is bench/perft_vs_stockfish.sh; this one tracks our own speed over time.
#include <benchmark/benchmark.h>

#include "chess/movegen.h"
#include "chess/perft.h"

namespace bookforge {
namespace {

void run_perft(benchmark::State& state, const char* fen) {
  chess::Board board = *chess::Board::from_fen(fen);
  const int depth = int(state.range(0));
  uint64_t nodes = 0;
  for (auto _ : state) nodes += chess::perft(board, depth);
  state.counters["nodes/s"] = benchmark::Counter(double(nodes), benchmark::Counter::kIsRate);
}

void BM_PerftStart(benchmark::State& state) {
  run_perft(state, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
}
void BM_PerftKiwipete(benchmark::State& state) {
  run_perft(state, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
}
void BM_PerftEndgame(benchmark::State& state) {
  run_perft(state, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1");
}
void BM_PerftPromotions(benchmark::State& state) {
  run_perft(state, "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1");
}

BENCHMARK(BM_PerftStart)->Arg(5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PerftKiwipete)->Arg(4)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PerftEndgame)->Arg(6)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PerftPromotions)->Arg(4)->Unit(benchmark::kMillisecond);

// Legal move generation alone, in the middlegame.
void BM_GenerateLegal(benchmark::State& state) {
  chess::Board board =
      *chess::Board::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  for (auto _ : state) {
    chess::MoveList list;
    chess::generate_legal(board, list);
    benchmark::DoNotOptimize(list.count);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_GenerateLegal);

}  // namespace
}  // namespace bookforge

BENCHMARK_MAIN();
