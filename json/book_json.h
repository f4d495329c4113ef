// Books as JSON: a book's moves for a position (probe --json, dump --format json and the
// server's /api/books), the dump's records, and a book's summary (info --json).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "book/polyglot/dump.h"
#include "book/polyglot/info.h"
#include "book/polyglot/probe.h"
#include "chess/board.h"
#include "json/json.h"

namespace bookforge::json {

// {"uci", "san", "weight", "learn"} of a move the book holds for `board`; a stored move that is
// not legal there (a damaged book, a key collision) has its raw from-to text and a null san.
Json to_json(const book::ProbedMove& move, const chess::Board& board);

// probe --json: {"key", "moves": [book moves]}, the moves in the book's order.
Json probe_json(const chess::Board& board, const std::vector<book::ProbedMove>& moves);

// {"ply", "key", "fen", "line", "moves": [book moves]}
Json to_json(const book::DumpRecord& record);

// The records as one JSON object, {"positions": [record, ...]}, written as they come, one
// record a line: a whole book's records need not fit in memory. finish() closes the object.
class JsonDumpWriter final : public book::DumpRecordSink {
 public:
  explicit JsonDumpWriter(std::ostream& out);
  void record(const book::DumpRecord& record) override;
  void finish();

 private:
  std::ostream& out_;
  bool first_ = true;
};

// info --json. A book that opened: {"file", "size", "valid": true, "entries", "positions",
// "zero_weight_entries", "reachable_positions", "deepest_reachable_ply", "longest_line_plies",
// "longest_line" (SAN with move numbers), "illegal_entries"}; one that did not (no info):
// {"file", "size", "valid": false, "error"}.
struct BookSummary {
  std::string file;
  int64_t size = 0;
  const book::BookInfo* info = nullptr;
  std::string longest_line;
  std::string error;
};
Json to_json(const BookSummary& summary);

}  // namespace bookforge::json
