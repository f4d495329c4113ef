#include "json/engine_json.h"

#include <algorithm>

#include "chess/movegen.h"
#include "chess/san.h"
#include "json/chess_json.h"

namespace bookforge::json {
namespace {

struct PvText {
  Json uci = Json::array();
  Json san = Json::array();
};

PvText pv_text(chess::Board board, const std::vector<chess::Move>& pv) {
  PvText text;
  for (chess::Move move : pv) {
    if (!board.is_legal(move)) break;
    text.uci.push_back(chess::move_to_uci(move));
    text.san.push_back(chess::move_to_san(board, move));
    chess::UndoInfo undo;
    board.make_move(move, undo);
  }
  return text;
}

bool has_legal_moves(const chess::Board& board) {
  chess::MoveList moves;
  chess::generate_legal(board, moves);
  return moves.size() > 0;
}

Json cli_json(const engine::SearchResult& r, const chess::Board& board) {
  Json out = {{"fen", board.fen()},
              {"side_to_move", board.side_to_move() == chess::kWhite ? "white" : "black"}};
  if (!has_legal_moves(board)) {
    out["result"] = board.in_check() ? "checkmate" : "stalemate";
    out["bestmove"] = nullptr;
    out["lines"] = Json::array();
    return out;
  }
  out["depth"] = r.depth;
  out["seldepth"] = r.lines.empty() ? 0 : r.lines[0].seldepth;
  out["nodes"] = r.nodes;
  out["time_ms"] = r.time_ms;
  out["nps"] = r.nodes * 1000 / uint64_t(std::max<int64_t>(r.time_ms, 1));
  out["bestmove"] = to_json(r.best_move, board);
  Json lines = Json::array();
  for (size_t i = 0; i < r.lines.size(); ++i) {
    const engine::PvLine& line = r.lines[i];
    PvText pv = pv_text(board, line.pv);
    lines.push_back({{"multipv", i + 1},
                     {"move", to_json(line.move, board)},
                     {"score", score_json(line.score)},
                     {"bound", engine::bound_name(line.bound)},
                     {"depth", line.depth},
                     {"pv_san", std::move(pv.san)},
                     {"pv_uci", std::move(pv.uci)}});
  }
  out["lines"] = std::move(lines);
  return out;
}

Json api_json(const engine::SearchResult& r, const chess::Board& board) {
  Json score;  // null: no search ran
  PvText pv;
  if (!has_legal_moves(board)) {
    score = board.in_check() ? Json{{"mate", 0}} : Json{{"cp", 0}};
  } else if (!r.lines.empty()) {
    score = score_json(r.lines.front().score);
    pv = pv_text(board, r.lines.front().pv);
  }
  return {{"depth", r.depth},
          {"score", std::move(score)},
          {"pv", std::move(pv.uci)},
          {"pvSan", std::move(pv.san)},
          {"nodes", r.nodes}};
}

}  // namespace

Json score_json(engine::Score score) {
  if (engine::is_mate_score(score)) return {{"mate", engine::mate_in_moves(score)}};
  return {{"cp", score}};
}

Json to_json(const engine::SearchResult& result, const chess::Board& board, Style style) {
  return style == Style::kCli ? cli_json(result, board) : api_json(result, board);
}

}  // namespace bookforge::json
