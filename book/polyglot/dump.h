// The tree of a book, walked depth first from the start position in book order (heaviest move
// first), written as PGN with variations or as one record per (position, move) in CSV or JSON.
// A position already written is not expanded again (a transposition); PGN marks the spot with
// a {transposition} comment.
//
// With a side, the dump is that side's repertoire: in its positions the book's moves; in the
// opponent's positions every legal reply that leads to a position the book has moves for (a
// book built with --side has no entries for the opponent's positions at all). Records are
// written for the side's positions only.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "book/polyglot/probe.h"
#include "book/polyglot/reader.h"
#include "chess/board.h"

namespace bookforge::book {

struct DumpOptions {
  std::optional<chess::Color> side;
  int max_ply = 0;        // lines stop after this many plies (0: no limit)
  std::string book_name;  // for the PGN header
};

struct DumpStats {
  uint64_t positions = 0;  // positions whose moves were written
  uint64_t moves = 0;
};

// The tree as PGN with variations.
DumpStats dump_pgn(const PolyglotBook& book, const DumpOptions& options, std::ostream& out);

// One position of the records: the board it is, the line that reached it (SAN, space
// separated) and its moves in order; an opponent's reply that is no book entry has weight 0
// and learn 0.
struct DumpRecord {
  int ply = 0;
  const chess::Board& board;
  const std::string& line;
  const std::vector<ProbedMove>& moves;
};

// Where the records go, one at a time as the walk finds them (a whole book's records need not
// fit in memory): CSV here, JSON in json/book_json.h.
class DumpRecordSink {
 public:
  virtual ~DumpRecordSink() = default;
  virtual void record(const DumpRecord& record) = 0;
};

DumpStats dump_records(const PolyglotBook& book, const DumpOptions& options, DumpRecordSink& sink);

// "ply,key,fen,line,uci,san,weight,learn": a header line, then one row per (position, move).
class CsvDumpWriter final : public DumpRecordSink {
 public:
  explicit CsvDumpWriter(std::ostream& out);
  void record(const DumpRecord& record) override;

 private:
  std::ostream& out_;
};

}  // namespace bookforge::book
