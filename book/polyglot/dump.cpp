#include "book/polyglot/dump.h"

#include <cstdio>
#include <unordered_set>
#include <vector>

#include "base/hex.h"
#include "book/polyglot/format.h"
#include "chess/movegen.h"
#include "chess/polyglot_move.h"
#include "chess/san.h"

namespace bookforge::book {

namespace {

class Dumper {
 public:
  Dumper(const PolyglotBook& book, const DumpOptions& options) : book_(book), options_(options) {}

  DumpStats pgn(std::ostream& out) {
    out_ = &out;
    chess::Board board;
    out << "[Event \"bookforge dump\"]\n[Site \"" << options_.book_name
        << "\"]\n[Date \"????.??.??\"]\n[Round \"-\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n";
    write_line(board, 0, true);
    token("*");
    out << "\n";
    return stats_;
  }

  DumpStats records(DumpRecordSink& sink) {
    sink_ = &sink;
    chess::Board board;
    std::vector<std::string> line;
    write_records(board, 0, line);
    return stats_;
  }

 private:
  bool is_side_node(const chess::Board& board) const {
    return !options_.side || board.side_to_move() == *options_.side;
  }

  bool in_book(uint64_t key) const {
    auto [first, last] = book_.range(key);
    return first != last;
  }

  // The moves to follow from a position (empty at the ply limit or for a position already
  // expanded), in order: book order, then other legal replies in generation order.
  std::vector<ProbedMove> children(const chess::Board& board, int depth) const {
    std::vector<ProbedMove> result;
    if (options_.max_ply > 0 && depth >= options_.max_ply) return result;
    auto [first, last] = book_.range(board.key());
    for (size_t i = first; i < last; ++i) {
      PolyglotEntry e = book_.entry(i);
      chess::Move m = chess::polyglot_to_move(board, e.move);
      if (m != chess::Move::none()) result.push_back({e, m});
    }
    if (is_side_node(board)) return result;
    // The opponent's position: replies the book has an answer to.
    std::vector<ProbedMove> replies;
    for (const ProbedMove& c : result)
      if (leads_into_book(board, c.move)) replies.push_back(c);
    chess::MoveList legal;
    chess::generate_legal(board, legal);
    for (chess::Move m : legal) {
      bool listed = false;
      for (const ProbedMove& c : replies) listed |= c.move == m;
      if (!listed && leads_into_book(board, m)) replies.push_back({PolyglotEntry{board.key(), 0, 0, 0}, m});
    }
    return replies;
  }

  bool leads_into_book(const chess::Board& board, chess::Move m) const {
    chess::Board after = board;
    chess::UndoInfo undo;
    after.make_move(m, undo);
    return in_book(after.key());
  }

  // ---- PGN -------------------------------------------------------------------------------

  // Writes a movetext token, wrapping lines before 80 columns. "(" is held back and glued to
  // the token after it, ")" to the token before it.
  void token(std::string text) {
    if (text == "(") {
      open_paren_ = true;
      return;
    }
    if (open_paren_) text = "(" + text;
    open_paren_ = false;
    if (column_ > 0 && column_ + 1 + text.size() > 79 && text != ")") {
      *out_ << "\n";
      column_ = 0;
    } else if (column_ > 0 && text != ")") {
      *out_ << ' ';
      ++column_;
    }
    *out_ << text;
    column_ += text.size();
  }

  void move_token(const chess::Board& board, chess::Move m, bool need_number) {
    std::string text;
    if (board.side_to_move() == chess::kWhite)
      text = std::to_string(board.fullmove_number()) + ". ";
    else if (need_number)
      text = std::to_string(board.fullmove_number()) + "... ";
    token(text + chess::move_to_san(board, m));
  }

  // The position after a move: a comment if it was expanded before, its line otherwise.
  void continue_after(chess::Board& board, int depth, bool need_number) {
    if (expanded_.count(board.key()) && in_book(board.key()))
      token("{transposition}");
    else
      write_line(board, depth, need_number);
  }

  // Main move, its alternatives as variations, then the main line goes on.
  void write_line(chess::Board& board, int depth, bool need_number) {
    if (!expanded_.insert(board.key()).second) return;
    std::vector<ProbedMove> moves = children(board, depth);
    if (moves.empty()) return;
    if (is_side_node(board)) {
      ++stats_.positions;
      stats_.moves += moves.size();
    }
    move_token(board, moves[0].move, need_number);
    for (size_t i = 1; i < moves.size(); ++i) {
      token("(");
      move_token(board, moves[i].move, true);
      chess::UndoInfo undo;
      board.make_move(moves[i].move, undo);
      continue_after(board, depth + 1, false);
      board.unmake_move(moves[i].move, undo);
      token(")");
    }
    chess::UndoInfo undo;
    board.make_move(moves[0].move, undo);
    continue_after(board, depth + 1, moves.size() > 1);
    board.unmake_move(moves[0].move, undo);
  }

  // ---- Records (CSV, JSON) ---------------------------------------------------------------

  void write_records(chess::Board& board, int depth, std::vector<std::string>& line) {
    if (!expanded_.insert(board.key()).second) return;
    std::vector<ProbedMove> moves = children(board, depth);
    if (moves.empty()) return;
    std::string line_text;
    for (const std::string& san : line) line_text += (line_text.empty() ? "" : " ") + san;
    if (is_side_node(board)) {
      ++stats_.positions;
      stats_.moves += moves.size();
      sink_->record({depth, board, line_text, moves});
    }
    for (const ProbedMove& c : moves) {
      line.push_back(chess::move_to_san(board, c.move));
      chess::UndoInfo undo;
      board.make_move(c.move, undo);
      write_records(board, depth + 1, line);
      board.unmake_move(c.move, undo);
      line.pop_back();
    }
  }

  const PolyglotBook& book_;
  const DumpOptions& options_;
  std::ostream* out_ = nullptr;     // PGN
  DumpRecordSink* sink_ = nullptr;  // records
  std::unordered_set<uint64_t> expanded_;
  size_t column_ = 0;
  bool open_paren_ = false;
  DumpStats stats_;
};

}  // namespace

DumpStats dump_pgn(const PolyglotBook& book, const DumpOptions& options, std::ostream& out) {
  return Dumper(book, options).pgn(out);
}

DumpStats dump_records(const PolyglotBook& book, const DumpOptions& options, DumpRecordSink& sink) {
  return Dumper(book, options).records(sink);
}

CsvDumpWriter::CsvDumpWriter(std::ostream& out) : out_(out) {
  out_ << "ply,key,fen,line,uci,san,weight,learn\n";
}

void CsvDumpWriter::record(const DumpRecord& r) {
  const std::string key = hex64(r.board.key()), fen = r.board.fen();
  for (const ProbedMove& m : r.moves)
    out_ << r.ply << ',' << key << ',' << fen << ",\"" << r.line << "\"," << chess::move_to_uci(m.move) << ','
         << chess::move_to_san(r.board, m.move) << ',' << m.entry.weight << ',' << m.entry.learn << '\n';
}

}  // namespace bookforge::book
