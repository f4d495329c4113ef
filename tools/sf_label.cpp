// sf_label: labels tuning positions with a reference engine's evaluation, for eval_tune's
// --scored input. Game results are a noisy label (a won position still loses a game now and
// then); a strong engine's score of the very position is a far less noisy one.
//
// Reads the lines eval_tune --dump writes ("FEN|result", result 1, 0.5 or 0 for white) and
// writes them back with the engine's score appended ("FEN|result|centipawns", white's view,
// mates clamped to +-3000), searching each position to a fixed node count with one thread.
//
//   build/bin/eval_tune --dump positions.txt --positions 200000 --sample 8 GAMES.pgn.zst
//   build/bin/sf_label --engine /usr/games/stockfish --nodes 5000 < positions.txt > scored.txt
//   build/bin/eval_tune --scored scored.txt --lambda 0.75 > tuned.inc
//
// Deterministic for a given engine build: one thread, a fixed node count, the hash cleared
// before every position.
//
// --static labels with Stockfish's static evaluation instead (its "eval" command, about 3,000
// positions a second against a few hundred for a search): the labels of the network the engine
// evaluates with (engine/nnue.h), where millions of quiet positions count for more than a deeper
// look at each. Positions in check have no static evaluation and are left out.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

#include "chess/board.h"
#include "engine/uci_client.h"

namespace bookforge {
namespace {

constexpr engine::Score kMateClamp = 3000;

// The engine's score of `board` from White's view: its static evaluation, or a search's score;
// none when it has none (in check for the static evaluation, mate or stalemate for a search).
Result<std::optional<engine::Score>> white_score(engine::UciClient& client, const chess::Board& board,
                                                 const engine::SearchLimits& limits, bool static_eval) {
  if (static_eval) return client.static_eval(board);
  if (Status s = client.new_game(); !s) return s.error();
  const auto result = client.search(board, limits);
  if (!result.ok()) return result.error();
  if (result->lines.empty()) return std::optional<engine::Score>();
  const engine::Score stm = result->lines[0].score;
  return std::optional<engine::Score>(board.side_to_move() == chess::kWhite ? stm : -stm);
}

int run(const std::string& engine_path, uint64_t nodes, bool static_eval) {
  auto client = engine::UciClient::launch(engine_path, {{"Threads", "1"}, {"Hash", "16"}});
  if (!client.ok()) {
    std::cerr << "sf_label: " << client.error().message << "\n";
    return 1;
  }
  engine::SearchLimits limits;
  limits.nodes = nodes;
  std::string line;
  size_t done = 0, line_number = 0;
  while (std::getline(std::cin, line)) {
    ++line_number;
    if (line.empty()) continue;
    const size_t bar = line.find('|');
    if (bar == std::string::npos) {
      std::cerr << "sf_label: standard input, line " << line_number << ": expected FEN|result\n";
      return 1;
    }
    const auto board = chess::Board::from_fen(std::string_view(line).substr(0, bar));
    if (!board.ok()) {
      std::cerr << "sf_label: standard input, line " << line_number << ": " << board.error().message << "\n";
      return 1;
    }
    const auto score = white_score(**client, *board, limits, static_eval);
    if (!score.ok()) {
      std::cerr << "sf_label: " << score.error().message << "\n";
      return 1;
    }
    if (!*score) continue;
    std::cout << line << '|' << std::clamp<engine::Score>(**score, -kMateClamp, kMateClamp) << '\n';
    if (++done % (static_eval ? 100000 : 10000) == 0) std::cerr << "labelled " << done << " positions\n";
  }
  return 0;
}

}  // namespace
}  // namespace bookforge

int main(int argc, char** argv) {
  std::string engine = "/usr/games/stockfish";
  uint64_t nodes = 5000;
  bool static_eval = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--engine" && i + 1 < argc) {
      engine = argv[++i];
    } else if (arg == "--nodes" && i + 1 < argc) {
      nodes = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--static") {
      static_eval = true;
    } else {
      std::cerr << "usage: sf_label [--engine PATH] [--nodes N | --static] < positions.txt > scored.txt\n";
      return 2;
    }
  }
  return bookforge::run(engine, nodes, static_eval);
}
