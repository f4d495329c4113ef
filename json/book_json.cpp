#include "json/book_json.h"

#include "base/hex.h"
#include "book/polyglot/format.h"
#include "chess/san.h"

namespace bookforge::json {

Json to_json(const book::ProbedMove& move, const chess::Board& board) {
  const bool legal = move.move != chess::Move::none();
  return {{"uci", legal ? chess::move_to_uci(move.move) : book::polyglot_move_text(move.entry.move)},
          {"san", legal ? Json(chess::move_to_san(board, move.move)) : Json(nullptr)},
          {"weight", move.entry.weight},
          {"learn", move.entry.learn}};
}

Json probe_json(const chess::Board& board, const std::vector<book::ProbedMove>& moves) {
  Json listed = Json::array();
  for (const book::ProbedMove& move : moves) listed.push_back(to_json(move, board));
  return {{"key", hex64(board.key())}, {"moves", std::move(listed)}};
}

Json to_json(const book::DumpRecord& record) {
  Json moves = Json::array();
  for (const book::ProbedMove& move : record.moves) moves.push_back(to_json(move, record.board));
  return {{"ply", record.ply},
          {"key", hex64(record.board.key())},
          {"fen", record.board.fen()},
          {"line", record.line},
          {"moves", std::move(moves)}};
}

// The object's opening and closing are written around the records, which are each a value of
// their own; the member's name is written by the JSON library like any other string.
JsonDumpWriter::JsonDumpWriter(std::ostream& out) : out_(out) {
  out_ << '{' << Json("positions").dump() << ":[";
}

void JsonDumpWriter::record(const book::DumpRecord& record) {
  out_ << (first_ ? "\n" : ",\n") << json_text(to_json(record));
  first_ = false;
}

void JsonDumpWriter::finish() { out_ << (first_ ? "" : "\n") << "]}\n"; }

Json to_json(const BookSummary& s) {
  if (!s.info)
    return {
        {"file", outside_text(s.file)}, {"size", s.size}, {"valid", false}, {"error", outside_text(s.error)}};
  const book::BookInfo& info = *s.info;
  return {{"file", outside_text(s.file)},
          {"size", s.size},
          {"valid", true},
          {"entries", info.entries},
          {"positions", info.positions},
          {"zero_weight_entries", info.zero_weight_entries},
          {"reachable_positions", info.reachable_positions},
          {"deepest_reachable_ply", info.deepest_reachable},
          {"longest_line_plies", info.longest_line.size()},
          {"longest_line", s.longest_line},
          {"illegal_entries", info.illegal_entries}};
}

}  // namespace bookforge::json
