#include "book/ctg/reader.h"

#include <unordered_map>
#include <unordered_set>

#include "book/ctg/board_code.h"
#include "book/ctg/move_code.h"
#include "book/ctg/pages.h"
#include "chess/polyglot_move.h"
#include "chess/san.h"

namespace bookforge::book {
namespace {

class CtgWalk {
 public:
  CtgWalk(const std::vector<CtgRecord>& records, const std::string& name) : records_(records), name_(name) {}

  Status index() {
    for (size_t i = 0; i < records_.size(); ++i) {
      auto [it, added] = by_board_.emplace(records_[i].board.index_key(), i);
      if (!added)
        return ctg_error(name_, records_[i].offset,
                         "the same position as the record at byte offset " +
                             std::to_string(records_[it->second].offset) + " (the book holds it twice)");
    }
    return ok_status();
  }

  Result<std::vector<CtgMove>> run() {
    // Depth first without recursion: a book can hold long lines.
    std::vector<chess::Board> stack{chess::Board()};
    seen_.insert(stack.back().key());
    while (!stack.empty()) {
      const chess::Board board = stack.back();
      stack.pop_back();
      CtgOrientation orientation;
      const CtgRecord* record = find(ctg_board_of(board, orientation));
      if (record == nullptr) continue;
      for (size_t i = 0; i + 1 < record->moves.size(); i += 2) {
        Result<chess::Move> move = decode(*record, i, board, orientation);
        if (!move.ok()) return move.error();
        chess::Board after = board;
        chess::UndoInfo undo;
        after.make_move(*move, undo);
        CtgMove out{board.key(), chess::move_to_polyglot(*move), record->moves[i + 1]};
        CtgOrientation after_orientation;
        if (const CtgRecord* next = find(ctg_board_of(after, after_orientation))) {
          const CtgStatistics& s = next->statistics;  // counted for the side to move after the move
          out.in_book = true;
          out.games = s.games;
          out.wins = s.losses;
          out.draws = s.draws;
          out.losses = s.wins;
          out.recommendation = s.recommendation;
          if (seen_.insert(after.key()).second) stack.push_back(after);
        }
        moves_.push_back(out);
      }
    }
    return std::move(moves_);
  }

 private:
  const CtgRecord* find(const CtgBoard& board) const {
    const auto it = by_board_.find(board.index_key());
    return it == by_board_.end() ? nullptr : &records_[it->second];
  }

  // The record's move at `i` (an index into its code/annotation pairs) on the real board.
  Result<chess::Move> decode(const CtgRecord& record, size_t i, const chess::Board& board,
                             const CtgOrientation& orientation) const {
    const uint8_t code = record.moves[i];
    const std::string which = "move " + std::to_string(i / 2 + 1) + " (code " + std::to_string(code) + ")";
    const std::optional<CtgStoredMove> stored = decode_ctg_move(code, record.board);
    if (!stored)
      return ctg_error(name_, record.offset,
                       which + " names no move of the piece it codes in " + board.fen());
    const chess::Square from = orientation.real_square(stored->from);
    const chess::Square to = orientation.real_square(stored->to);
    std::string uci = chess::move_to_uci(chess::Move(from, to));  // the squares; uci_to_move finds the kind
    const int last_rank = board.side_to_move() == chess::kWhite ? 7 : 0;
    if (chess::type_of(board.piece_on(from)) == chess::kPawn && chess::rank_of(to) == last_rank) uci += 'q';
    const chess::Move move = chess::uci_to_move(board, uci);
    if (move == chess::Move::none())
      return ctg_error(name_, record.offset, which + ", " + uci + ", is not legal in " + board.fen());
    return move;
  }

  const std::vector<CtgRecord>& records_;
  const std::string& name_;
  std::unordered_map<std::string, size_t> by_board_;
  std::unordered_set<uint64_t> seen_;
  std::vector<CtgMove> moves_;
};

}  // namespace

Result<std::vector<CtgMove>> read_ctg(std::span<const unsigned char> bytes, const std::string& name) {
  Result<std::vector<CtgRecord>> records = read_ctg_pages(bytes, name);
  if (!records.ok()) return records.error();
  CtgWalk walk(*records, name);
  if (Status s = walk.index(); !s.ok()) return s.error();
  return walk.run();
}

}  // namespace bookforge::book
