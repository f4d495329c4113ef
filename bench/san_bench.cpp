// SAN resolution + make_move on real games, in plies per second on one core. The games are
// read and split into SAN tokens before timing; the timed loop replays every game from its
// start position with san_to_move and make_move only.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "chess/san.h"
#include "tests/chess/movetext.h"

namespace bookforge {
namespace {

struct Corpus {
  std::vector<chess::Board> starts;
  std::vector<std::vector<std::string>> sans;
  size_t plies = 0;
};

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The shared TWIC and lichess files when present, else the project's data-samples. Games
// that fail to replay are left out so the timed loop never hits an error path.
const Corpus& corpus() {
  static const Corpus c = [] {
    Corpus c;
    const std::filesystem::path shared = BOOKFORGE_SHARED_DATA "/games";
    std::vector<std::filesystem::path> files;
    for (const char* name :
         {"twic0920.pgn", "lichess-org-database_2016-05.pgn", "lichess-org-database_2017-05.pgn"})
      if (std::filesystem::exists(shared / name)) files.push_back(shared / name);
    if (files.empty())
      for (const char* name : {"twic0920-2000.pgn", "lichess-2016-05-1000.pgn"})
        files.push_back(std::filesystem::path(BOOKFORGE_SOURCE_DIR "/data-samples") / name);
    for (const auto& file : files) {
      for (auto& game : test::read_games(slurp(file))) {
        auto start =
            game.fen.empty() ? Result<chess::Board>(chess::Board()) : chess::Board::from_fen(game.fen);
        if (!start.ok()) continue;
        chess::Board b = *start;
        bool ok = true;
        for (const std::string& san : game.sans) {
          chess::SanResult r = chess::san_to_move(b, san);
          if (!r.ok()) {
            ok = false;
            break;
          }
          chess::UndoInfo undo;
          b.make_move(r.move, undo);
        }
        if (!ok) continue;
        c.plies += game.sans.size();
        c.starts.push_back(*start);
        c.sans.push_back(std::move(game.sans));
      }
    }
    std::fprintf(stderr, "corpus: %zu games, %zu plies\n", c.starts.size(), c.plies);
    return c;
  }();
  return c;
}

void BM_SanReplay(benchmark::State& state) {
  const Corpus& c = corpus();
  size_t plies = 0;
  for (auto _ : state) {
    for (size_t g = 0; g < c.starts.size(); ++g) {
      chess::Board board = c.starts[g];
      chess::UndoInfo undo;
      for (const std::string& san : c.sans[g]) {
        const chess::SanResult r = chess::san_to_move(board, san);
        board.make_move(r.move, undo);
      }
      benchmark::DoNotOptimize(board.key());
    }
    plies += c.plies;
  }
  state.counters["plies/s"] = benchmark::Counter(double(plies), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SanReplay)->Unit(benchmark::kMillisecond)->MinTime(2.0);

// The same games replayed from stored moves: the cost of make_move alone, for comparison.
void BM_MoveReplay(benchmark::State& state) {
  const Corpus& c = corpus();
  std::vector<std::vector<chess::Move>> moves(c.starts.size());
  for (size_t g = 0; g < c.starts.size(); ++g) {
    chess::Board board = c.starts[g];
    chess::UndoInfo undo;
    for (const std::string& san : c.sans[g]) {
      moves[g].push_back(chess::san_to_move(board, san).move);
      board.make_move(moves[g].back(), undo);
    }
  }
  size_t plies = 0;
  for (auto _ : state) {
    for (size_t g = 0; g < c.starts.size(); ++g) {
      chess::Board board = c.starts[g];
      chess::UndoInfo undo;
      for (chess::Move m : moves[g]) board.make_move(m, undo);
      benchmark::DoNotOptimize(board.key());
    }
    plies += c.plies;
  }
  state.counters["plies/s"] = benchmark::Counter(double(plies), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MoveReplay)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace
}  // namespace bookforge

BENCHMARK_MAIN();
