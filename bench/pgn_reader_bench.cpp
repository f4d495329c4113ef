// The PGN reader's stages on one thread, input in memory (TWIC 920, 1.9 MB, 2,245 games):
// finding game boundaries, lexing every token, and replaying to ply 40 or to the end. Bytes
// per second are reported, so the stages compare with each other and with the I/O floor.
//
//   build/bin/bench_pgn_reader [--benchmark_filter=Split]
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "pgn/chunker.h"
#include "pgn/lexer.h"
#include "pgn/replay.h"
#include "pgn/splitter.h"

namespace {

using namespace bookforge::pgn;

const std::string& twic() {
  static const std::string text = [] {
    std::ifstream in(std::filesystem::path(BOOKFORGE_SHARED_DATA) / "games/twic0920.pgn", std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }();
  return text;
}

std::vector<Block> blocks_of(const std::string& text) {
  std::unique_ptr<ByteSource> source = memory_source(text);
  Chunker chunker(*source, 4 << 20, size_t(64) << 20);
  std::vector<Block> blocks;
  Block block;
  while (*chunker.next(block)) blocks.push_back(std::move(block));
  return blocks;
}

bool have_input(benchmark::State& state) {
  if (!twic().empty()) return true;
  state.SkipWithError("../shared/data/games/twic0920.pgn not found");
  return false;
}

void Split(benchmark::State& state) {
  if (!have_input(state)) return;
  const std::string& text = twic();
  std::vector<GameSpan> spans;
  for (auto _ : state) {
    GameSplitter splitter;
    spans.clear();
    splitter.scan(text.data(), text.size(), true, spans);
    benchmark::DoNotOptimize(spans.data());
  }
  state.SetBytesProcessed(int64_t(state.iterations() * text.size()));
  state.counters["games"] = double(spans.size());
}
BENCHMARK(Split)->Unit(benchmark::kMillisecond);

void Lex(benchmark::State& state) {
  if (!have_input(state)) return;
  std::vector<Block> blocks = blocks_of(twic());
  struct Null final : Visitor {};
  Null visitor;
  for (auto _ : state)
    for (const Block& b : blocks)
      for (const GameSpan& span : b.games) visit_game(b, span, visitor);
  state.SetBytesProcessed(int64_t(state.iterations() * twic().size()));
}
BENCHMARK(Lex)->Unit(benchmark::kMillisecond);

void Replay(benchmark::State& state) {
  if (!have_input(state)) return;
  std::vector<Block> blocks = blocks_of(twic());
  struct Discard final : GameSink {
    void on_game(const ReplayedGame&) override {}
  };
  PipelineOptions options;
  options.max_ply = int(state.range(0));
  Discard sink;
  const std::string file = "twic0920.pgn";
  uint64_t plies = 0;
  for (auto _ : state) {
    WorkerStats stats;
    GameReplayer replayer(options, sink, stats);
    uint64_t number = 0;
    for (const Block& b : blocks) {
      for (const GameSpan& span : b.games) {
        ++number;
        replayer.set_origin(&file, number, number, b.offset_in_file + span.begin);
        visit_game(b, span, replayer);
      }
    }
    plies = stats.stats.plies;
  }
  state.SetBytesProcessed(int64_t(state.iterations() * twic().size()));
  state.counters["plies/s"] =
      benchmark::Counter(double(plies) * double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(Replay)->Arg(40)->Arg(0)->ArgName("max_ply")->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
