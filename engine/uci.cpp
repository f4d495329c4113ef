#include "engine/uci.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <istream>
#include <ostream>
#include <sstream>

#include "chess/movegen.h"
#include "chess/san.h"
#include "engine/nnue.h"

namespace bookforge::engine {
namespace {

constexpr int kMaxHashMb = 1 << 16;
constexpr int kMaxThreads = 256;
constexpr int kMaxMultiPv = 256;

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> tokens;
  std::istringstream s(line);
  for (std::string t; s >> t;) tokens.push_back(t);
  return tokens;
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// An integer, or `fallback` if the text is not one.
int64_t parse_count(const std::string& text, int64_t fallback) {
  int64_t v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  return ec == std::errc() && p == end ? v : fallback;
}

std::string score_text(Score s) {
  if (is_mate_score(s)) return "mate " + std::to_string(mate_in_moves(s));
  return "cp " + std::to_string(s);
}

}  // namespace

// The input is untied from every output for the session's lifetime. A tied input (std::cin is
// tied to std::cout) flushes that stream before each read, from the reading thread and without
// out_mutex_, while the search thread writes "info" and "bestmove" lines into the same buffer
// under the lock. Two threads flushing one buffer write its contents twice or drop them: a
// "bestmove" sent twice is read by a fast client as the answer to its next "go", and from then
// on every answer is the previous position's.
UciSession::UciSession(std::istream& in, std::ostream& out, UciIdentity id, BookLoader book_loader)
    : in_(in),
      out_(out),
      in_tie_(in.tie(nullptr)),
      id_(std::move(id)),
      book_loader_(std::move(book_loader)) {}

UciSession::~UciSession() {
  stop_search();
  in_.tie(in_tie_);
}

Status UciSession::set_default_book(const std::string& path) {
  if (!book_loader_) return Error{"no book support in this build"};
  Result<BookProbe> book = book_loader_(path);
  if (!book.ok()) return book.error();
  book_ = std::move(*book);
  book_file_ = default_book_file_ = path;
  own_book_ = true;
  return ok_status();
}

void UciSession::send(const std::string& line) {
  std::lock_guard lock(out_mutex_);
  out_ << line << '\n' << std::flush;
}

std::string UciSession::format_info(const SearchInfo& info, bool chess960) {
  const PvLine& l = info.line;
  std::string s = "info depth " + std::to_string(l.depth) + " seldepth " + std::to_string(l.seldepth) +
                  " multipv " + std::to_string(info.multipv) + " score " + score_text(l.score);
  if (l.bound == Bound::kLower) s += " lowerbound";
  if (l.bound == Bound::kUpper) s += " upperbound";
  const int64_t nps = int64_t(info.nodes * 1000 / uint64_t(std::max<int64_t>(info.time_ms, 1)));
  s += " nodes " + std::to_string(info.nodes) + " nps " + std::to_string(nps) + " hashfull " +
       std::to_string(info.hashfull) + " time " + std::to_string(info.time_ms);
  if (!l.pv.empty()) {
    s += " pv";
    for (chess::Move m : l.pv) {
      s += ' ';
      s += chess::move_to_uci(m, chess960);
    }
  }
  return s;
}

void UciSession::run() {
  for (std::string line; std::getline(in_, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!handle(line)) return;
  }
  // End of input: a search with limits may finish (so that piped commands work); one that
  // would wait for "stop" or run forever is stopped.
  if (open_ended_search_) engine_.stop();
  engine_.wait();
}

bool UciSession::handle(const std::string& line) {
  const std::vector<std::string> tokens = split(line);
  if (tokens.empty()) return true;
  const std::string& cmd = tokens[0];
  if (cmd == "uci") {
    cmd_uci();
  } else if (cmd == "isready") {
    send("readyok");
  } else if (cmd == "ucinewgame") {
    stop_search();
    engine_.new_game();
  } else if (cmd == "position") {
    cmd_position(tokens);
  } else if (cmd == "go") {
    cmd_go(tokens);
  } else if (cmd == "stop") {
    engine_.stop();
  } else if (cmd == "ponderhit") {
    open_ended_search_ = !search_has_limit_;  // from now on an ordinary search on the clock
    engine_.ponderhit();
  } else if (cmd == "setoption") {
    cmd_setoption(tokens);
  } else if (cmd == "quit") {
    stop_search();
    return false;
  } else if (cmd == "debug" || cmd == "register") {
    // Nothing to debug or register.
  } else {
    send("info string unknown command: " + cmd);
  }
  return true;
}

void UciSession::cmd_uci() {
  send("id name " + id_.name);
  send("id author " + id_.author);
  send("option name Hash type spin default 16 min 1 max " + std::to_string(kMaxHashMb));
  send("option name Threads type spin default 1 min 1 max " + std::to_string(kMaxThreads));
  send("option name MultiPV type spin default 1 min 1 max " + std::to_string(kMaxMultiPv));
  send("option name Move Overhead type spin default 30 min 0 max 5000");
  send("option name Ponder type check default false");
  send("option name Clear Hash type button");
  send("option name UCI_Chess960 type check default false");
  send("option name Use NNUE type check default true");
  send("option name EvalFile type string default <embedded>");
  send(std::string("option name OwnBook type check default ") +
       (default_book_file_.empty() ? "false" : "true"));
  send("option name BookFile type string default " +
       (default_book_file_.empty() ? std::string("<empty>") : default_book_file_));
  send("option name BookBestMove type check default false");
  send("option name BookMaxPly type spin default 32 min 0 max 1024");
  send("uciok");
}

void UciSession::stop_search() {
  engine_.stop();
  engine_.wait();
}

// setoption name <id, may contain spaces> [value <text, may contain spaces>]
void UciSession::cmd_setoption(const std::vector<std::string>& tokens) {
  std::string name, value;
  bool in_value = false;
  for (size_t i = 1; i < tokens.size(); ++i) {
    if (!in_value && tokens[i] == "name") continue;
    if (!in_value && tokens[i] == "value") {
      in_value = true;
      continue;
    }
    std::string& target = in_value ? value : name;
    if (!target.empty()) target += ' ';
    target += tokens[i];
  }
  const std::string key = lower(name);
  const std::string flag = lower(value);
  stop_search();

  if (key == "hash") {
    const int64_t mb = parse_count(value, -1);
    if (mb < 1 || mb > kMaxHashMb) return send("info string Hash must be 1.." + std::to_string(kMaxHashMb));
    if (Status s = engine_.set_hash(size_t(mb)); !s.ok()) send("info string " + s.error().message);
  } else if (key == "threads") {
    const int64_t n = parse_count(value, -1);
    if (n < 1 || n > kMaxThreads)
      return send("info string Threads must be 1.." + std::to_string(kMaxThreads));
    engine_.set_threads(int(n));
  } else if (key == "multipv") {
    const int64_t n = parse_count(value, -1);
    if (n < 1 || n > kMaxMultiPv)
      return send("info string MultiPV must be 1.." + std::to_string(kMaxMultiPv));
    multipv_ = int(n);
  } else if (key == "move overhead") {
    const int64_t ms = parse_count(value, -1);
    if (ms < 0 || ms > 5000) return send("info string Move Overhead must be 0..5000");
    engine_.set_move_overhead(ms);
  } else if (key == "clear hash") {
    engine_.new_game();
  } else if (key == "ponder") {
    // Pondering needs nothing from us but "go ponder" and "ponderhit".
  } else if (key == "use nnue") {
    engine::nnue::set_use_network(flag == "true");
  } else if (key == "evalfile") {
    if (Status s = engine::nnue::use_network_file(value); !s.ok())
      send("info string cannot use EvalFile: " + s.error().message);
  } else if (key == "uci_chess960") {
    chess960_ = flag == "true";
  } else if (key == "ownbook") {
    own_book_ = flag == "true";
  } else if (key == "bookbestmove") {
    book_best_move_ = flag == "true";
  } else if (key == "bookmaxply") {
    const int64_t n = parse_count(value, -1);
    if (n < 0 || n > 1024) return send("info string BookMaxPly must be 0..1024");
    book_max_ply_ = int(n);
  } else if (key == "bookfile") {
    book_ = nullptr;
    book_file_ = value == "<empty>" ? "" : value;
    if (book_file_.empty()) return;
    if (!book_loader_) return send("info string no book support in this build");
    Result<BookProbe> book = book_loader_(book_file_);
    if (!book.ok()) return send("info string cannot use book: " + book.error().message);
    book_ = std::move(*book);
  } else {
    send("info string unknown option: " + name);
  }
}

// position (startpos | fen <FEN>) [moves <move>...]
void UciSession::cmd_position(const std::vector<std::string>& tokens) {
  size_t i = 1;
  chess::Board board;
  if (i < tokens.size() && tokens[i] == "startpos") {
    ++i;
    // The standard start is Chess960 position 518: its castling is then written e1h1.
    if (chess960_) board = *chess::Board::from_fen(chess::kStartFen, true);
  } else if (i < tokens.size() && tokens[i] == "fen") {
    std::string fen;
    for (++i; i < tokens.size() && tokens[i] != "moves"; ++i) fen += (fen.empty() ? "" : " ") + tokens[i];
    Result<chess::Board> parsed = chess::Board::from_fen(fen, chess960_);
    if (!parsed.ok()) return send("info string bad fen: " + parsed.error().message);
    board = *parsed;
  } else {
    return send("info string position needs startpos or fen");
  }
  std::vector<uint64_t> history;
  if (i < tokens.size() && tokens[i] == "moves") {
    for (++i; i < tokens.size(); ++i) {
      const chess::Move m = chess::uci_to_move(board, tokens[i]);
      if (!m.is_ok()) {
        send("info string illegal move " + tokens[i] + " in " + board.fen() + "; moves after it ignored");
        break;
      }
      history.push_back(board.key());
      chess::UndoInfo undo;
      board.make_move(m, undo);
    }
  }
  board_ = board;
  history_ = std::move(history);
}

chess::Move UciSession::book_move() const {
  if (!own_book_ || !book_ || board_.game_ply() >= book_max_ply_) return chess::Move::none();
  const chess::Move m = book_(board_, book_best_move_);
  return m.is_ok() && board_.is_legal(m) ? m : chess::Move::none();
}

void UciSession::cmd_go(const std::vector<std::string>& tokens) {
  stop_search();
  SearchLimits limits;
  limits.multipv = multipv_;
  ClockLimits& clock = limits.clock;
  for (size_t i = 1; i < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    const bool has_arg = i + 1 < tokens.size();
    auto arg = [&](int64_t fallback) { return has_arg ? parse_count(tokens[++i], fallback) : fallback; };
    // A limit of zero, a negative one or a missing number means the smallest limit, never none:
    // 0 in SearchLimits and ClockLimits stands for "no limit", a search that never ends by itself.
    auto positive = [&] { return std::max<int64_t>(arg(1), 1); };
    if (t == "infinite")
      limits.infinite = true;
    else if (t == "ponder")
      limits.ponder = true;
    else if (t == "wtime")
      clock.time_ms[chess::kWhite] = positive();
    else if (t == "btime")
      clock.time_ms[chess::kBlack] = positive();
    else if (t == "winc")
      clock.inc_ms[chess::kWhite] = std::max<int64_t>(arg(0), 0);
    else if (t == "binc")
      clock.inc_ms[chess::kBlack] = std::max<int64_t>(arg(0), 0);
    else if (t == "movestogo")
      clock.movestogo = int(std::clamp<int64_t>(arg(0), 0, 1000));
    else if (t == "movetime")
      clock.movetime_ms = positive();
    else if (t == "depth")
      limits.depth = int(std::min<int64_t>(positive(), kMaxPly - 1));
    else if (t == "nodes")
      limits.nodes = uint64_t(positive());
    else if (t == "searchmoves") {
      while (i + 1 < tokens.size()) {
        const chess::Move m = chess::uci_to_move(board_, tokens[i + 1]);
        if (!m.is_ok()) break;
        limits.search_moves.push_back(m);
        ++i;
      }
    }
  }

  // The book answers at once, unless the GUI wants analysis (infinite, ponder, searchmoves).
  if (!limits.infinite && !limits.ponder && limits.search_moves.empty()) {
    if (const chess::Move m = book_move(); m.is_ok()) {
      send("info string book move");
      return send("bestmove " + chess::move_to_uci(m, chess960_));
    }
  }

  search_has_limit_ = limits.depth > 0 || limits.nodes > 0 || clock.movetime_ms > 0 ||
                      clock.time_ms[chess::kWhite] > 0 || clock.time_ms[chess::kBlack] > 0;
  open_ended_search_ = limits.infinite || limits.ponder || !search_has_limit_;
  SearchListener listener;
  listener.on_info = [this](const SearchInfo& info) { send(format_info(info, chess960_)); };
  listener.on_currmove = [this](int depth, chess::Move m, int number) {
    send("info depth " + std::to_string(depth) + " currmove " + chess::move_to_uci(m, chess960_) +
         " currmovenumber " + std::to_string(number));
  };
  engine_.start(board_, history_, limits, listener, [this](const SearchResult& result) {
    if (!result.best_move.is_ok()) return send("bestmove (none)");
    std::string line = "bestmove " + chess::move_to_uci(result.best_move, chess960_);
    if (result.ponder_move.is_ok()) line += " ponder " + chess::move_to_uci(result.ponder_move, chess960_);
    send(line);
  });
}

}  // namespace bookforge::engine
