// bookforge analyse: searches one position with the embedded engine and prints the score and
// principal variation of the best line(s), as text or JSON.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "chess/san.h"
#include "cli/command.h"
#include "cli/number_option.h"
#include "engine/search.h"

namespace bookforge::cli {
namespace {

struct AnalyseOptions {
  std::string fen;
  std::string moves;
  int depth = 0;
  uint64_t nodes = 0;
  int64_t movetime_ms = 0;
  int multipv = 1;
  bool json = false;
  int hash_mb = 64;
  int threads = 1;
};

constexpr int kDefaultDepth = 12;

struct Position {
  chess::Board board;
  std::vector<uint64_t> history;
};

// "1.", "12...", "1.e4" -> "", "", "e4": move numbers may be glued to the move or not.
std::string strip_move_number(const std::string& token) {
  size_t i = 0;
  while (i < token.size() && std::isdigit(static_cast<unsigned char>(token[i]))) ++i;
  if (i == 0 || i == token.size() || token[i] != '.') return token;
  while (i < token.size() && token[i] == '.') ++i;
  return token.substr(i);
}

// The position after --moves (SAN or UCI) from --fen or the start position. Bad input is a
// CLI error (exit code 2), like any other bad flag.
Position setup_position(const AnalyseOptions& opts) {
  Position pos;
  if (!opts.fen.empty()) {
    Result<chess::Board> b = chess::Board::from_fen(opts.fen);
    if (!b.ok()) throw CLI::ValidationError("--fen", b.error().message);
    pos.board = *b;
  }
  std::istringstream in(opts.moves);
  int number = 0;
  for (std::string token; in >> token;) {
    const std::string san = strip_move_number(token);
    if (san.empty()) continue;
    ++number;
    chess::Move m = chess::uci_to_move(pos.board, san);
    if (!m.is_ok()) {
      const chess::SanResult r = chess::san_to_move(pos.board, san);
      if (!r.ok())
        throw CLI::ValidationError("--moves", "move " + std::to_string(number) + " '" + san +
                                                  "': " + std::string(chess::san_error_message(r.error)));
      m = r.move;
    }
    pos.history.push_back(pos.board.key());
    chess::UndoInfo undo;
    pos.board.make_move(m, undo);
  }
  return pos;
}

std::string json_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

// The PV in SAN, and in SAN with move numbers for reading ("12... Nf6 13. Bg5").
struct SanPv {
  std::vector<std::string> moves;
  std::string numbered;
};

SanPv san_pv(chess::Board board, const std::vector<chess::Move>& pv) {
  SanPv out;
  for (chess::Move m : pv) {
    if (!board.is_legal(m)) break;
    const std::string san = chess::move_to_san(board, m);
    const int number = board.fullmove_number();
    if (board.side_to_move() == chess::kWhite)
      out.numbered += (out.numbered.empty() ? "" : " ") + std::to_string(number) + ". ";
    else if (out.numbered.empty())
      out.numbered += std::to_string(number) + "... ";
    else
      out.numbered += " ";
    out.numbered += san;
    out.moves.push_back(san);
    chess::UndoInfo undo;
    board.make_move(m, undo);
  }
  return out;
}

std::string score_text(engine::Score s) {
  char buf[32];
  if (engine::is_mate_score(s))
    std::snprintf(buf, sizeof buf, "#%d", engine::mate_in_moves(s));
  else
    std::snprintf(buf, sizeof buf, "%+.2f", s / 100.0);
  return buf;
}

std::string score_json(engine::Score s) {
  return engine::is_mate_score(s) ? "{\"mate\": " + std::to_string(engine::mate_in_moves(s)) + "}"
                                  : "{\"cp\": " + std::to_string(s) + "}";
}

const char* bound_name(engine::Bound b) {
  return b == engine::Bound::kLower ? "lower" : b == engine::Bound::kUpper ? "upper" : "exact";
}

void print_text(const Position& pos, const engine::SearchResult& r) {
  const uint64_t nps = r.nodes * 1000 / uint64_t(std::max<int64_t>(r.time_ms, 1));
  std::printf("Position  %s\n", pos.board.fen().c_str());
  if (!r.best_move.is_ok()) {
    std::printf("Result    %s\n", pos.board.in_check() ? "checkmate" : "stalemate");
    return;
  }
  const int seldepth = r.lines.empty() ? 0 : r.lines[0].seldepth;
  std::printf("Search    depth %d (seldepth %d), %llu nodes in %.2f s (%llu nodes/s)\n", r.depth, seldepth,
              (unsigned long long)r.nodes, r.time_ms / 1000.0, (unsigned long long)nps);
  std::printf("Scores    from the side to move's point of view (%s)\n\n",
              pos.board.side_to_move() == chess::kWhite ? "White" : "Black");
  for (size_t i = 0; i < r.lines.size(); ++i) {
    const engine::PvLine& l = r.lines[i];
    const std::string bound =
        l.bound == engine::Bound::kExact ? "" : std::string(" (") + bound_name(l.bound) + " bound)";
    std::printf("%2zu. %7s  %s%s\n", i + 1, score_text(l.score).c_str(),
                san_pv(pos.board, l.pv).numbered.c_str(), bound.c_str());
  }
}

void print_json(const Position& pos, const engine::SearchResult& r) {
  const uint64_t nps = r.nodes * 1000 / uint64_t(std::max<int64_t>(r.time_ms, 1));
  std::string s = "{\n  \"fen\": \"" + json_escape(pos.board.fen()) + "\",\n";
  s += std::string("  \"side_to_move\": \"") +
       (pos.board.side_to_move() == chess::kWhite ? "white" : "black") + "\",\n";
  if (!r.best_move.is_ok()) {
    s += std::string("  \"result\": \"") + (pos.board.in_check() ? "checkmate" : "stalemate") + "\",\n";
    s += "  \"bestmove\": null,\n  \"lines\": []\n}\n";
    std::fputs(s.c_str(), stdout);
    return;
  }
  s += "  \"depth\": " + std::to_string(r.depth) + ",\n";
  s += "  \"seldepth\": " + std::to_string(r.lines.empty() ? 0 : r.lines[0].seldepth) + ",\n";
  s += "  \"nodes\": " + std::to_string(r.nodes) + ",\n";
  s += "  \"time_ms\": " + std::to_string(r.time_ms) + ",\n";
  s += "  \"nps\": " + std::to_string(nps) + ",\n";
  s += "  \"bestmove\": {\"san\": \"" + chess::move_to_san(pos.board, r.best_move) + "\", \"uci\": \"" +
       chess::move_to_uci(r.best_move) + "\"},\n";
  s += "  \"lines\": [";
  for (size_t i = 0; i < r.lines.size(); ++i) {
    const engine::PvLine& l = r.lines[i];
    const SanPv pv = san_pv(pos.board, l.pv);
    s += i ? ",\n    {" : "\n    {";
    s += "\"multipv\": " + std::to_string(i + 1) + ", ";
    s += "\"move\": {\"san\": \"" + (pv.moves.empty() ? std::string() : pv.moves[0]) + "\", \"uci\": \"" +
         chess::move_to_uci(l.move) + "\"}, ";
    s += "\"score\": " + score_json(l.score) + ", ";
    s += std::string("\"bound\": \"") + bound_name(l.bound) + "\", ";
    s += "\"depth\": " + std::to_string(l.depth) + ", ";
    s += "\"pv_san\": [";
    for (size_t k = 0; k < pv.moves.size(); ++k) s += (k ? ", \"" : "\"") + pv.moves[k] + "\"";
    s += "], \"pv_uci\": [";
    for (size_t k = 0; k < pv.moves.size(); ++k)
      s += (k ? ", \"" : "\"") + chess::move_to_uci(l.pv[k]) + "\"";
    s += "]}";
  }
  s += "\n  ]\n}\n";
  std::fputs(s.c_str(), stdout);
}

int run_analyse(const AnalyseOptions& opts) {
  const Position pos = setup_position(opts);
  engine::Engine engine(size_t(opts.hash_mb), opts.threads);
  engine::SearchLimits limits;
  limits.depth = opts.depth;
  limits.nodes = opts.nodes;
  limits.clock.movetime_ms = opts.movetime_ms;
  if (!opts.depth && !opts.nodes && !opts.movetime_ms) limits.depth = kDefaultDepth;
  limits.multipv = opts.multipv;
  engine.set_move_overhead(0);
  const engine::SearchResult result = engine.search(pos.board, pos.history, limits);
  if (opts.json)
    print_json(pos, result);
  else
    print_text(pos, result);
  return kExitOk;
}

void setup_analyse(CLI::App& root) {
  auto opts = std::make_shared<AnalyseOptions>();
  CLI::App* sub =
      add_subcommand(root, "analyse", "Search a position with the embedded engine: score and best line(s)");
  sub->alias("analyze");
  sub->add_option("--fen", opts->fen, "Position to analyse (default: the start position)");
  sub->add_option("--moves", opts->moves, "Moves (SAN or UCI) played from --fen or the start position");
  auto* depth = sub->add_option("--depth", opts->depth, "Search depth (default 12)")
                    ->transform(whole_number(1, engine::kMaxPly - 1));
  auto* nodes = sub->add_option("--nodes", opts->nodes, "Node budget")->transform(whole_number(1, kNoLimit));
  auto* movetime = sub->add_option("--movetime", opts->movetime_ms, "Time budget in milliseconds")
                       ->transform(whole_number(1, kMaxMovetimeMs));
  depth->excludes(nodes)->excludes(movetime);
  nodes->excludes(movetime);
  sub->add_option("--multipv", opts->multipv, "Number of best moves to report")
      ->transform(whole_number(1, 256));
  sub->add_flag("--json", opts->json, "Machine-readable output");
  sub->add_option("--hash", opts->hash_mb, "Transposition table size in MB (default 64)")
      ->transform(whole_number(1, kMaxHashMb));
  sub->add_option("--threads", opts->threads, "Search threads (default 1)")
      ->transform(whole_number(1, kMaxThreads));
  sub->callback([opts] { set_exit_code(run_analyse(*opts)); });
}

}  // namespace

BOOKFORGE_REGISTER_COMMAND("analyse", setup_analyse);

}  // namespace bookforge::cli
