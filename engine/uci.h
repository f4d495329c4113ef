// The UCI text protocol on top of the Engine: reads commands from a stream, answers on
// another. Searches run on the engine's background thread, so "isready", "stop" and
// "ponderhit" are answered while a search is running. The opening book comes in through
// a callback (the engine knows nothing about book files).
#pragma once

#include <functional>
#include <iosfwd>
#include <mutex>
#include <string>
#include <vector>

#include "base/result.h"
#include "chess/board.h"
#include "engine/search.h"

namespace bookforge::engine {

// A move from an opened book for this position (Move::none() if the position is not in it);
// `best` asks for the most played move instead of a weighted random pick.
using BookProbe = std::function<chess::Move(const chess::Board& board, bool best)>;
// Opens a book file for the BookFile option.
using BookLoader = std::function<Result<BookProbe>(const std::string& path)>;

struct UciIdentity {
  std::string name = "bookforge";
  std::string author = "the bookforge authors";
};

class UciSession {
 public:
  UciSession(std::istream& in, std::ostream& out, UciIdentity id = {}, BookLoader book_loader = {});
  ~UciSession();
  UciSession(const UciSession&) = delete;
  UciSession& operator=(const UciSession&) = delete;

  // Opens `path` with the book loader and makes it the book in use and the advertised default:
  // OwnBook "default true", BookFile "default <path>" (what `bookforge uci --book` does). A
  // client can still turn it off with "setoption name OwnBook value false".
  Status set_default_book(const std::string& path);

  // Reads and answers commands until "quit" or the end of the input.
  void run();
  // Handles one command line; false after "quit".
  bool handle(const std::string& line);

  // Formats one "info" line (also used by tests).
  // Castling as king takes rook when chess960 (UCI_Chess960), else as the king's destination.
  static std::string format_info(const SearchInfo& info, bool chess960);

 private:
  void send(const std::string& line);
  void cmd_uci();
  void cmd_setoption(const std::vector<std::string>& tokens);
  void cmd_position(const std::vector<std::string>& tokens);
  void cmd_go(const std::vector<std::string>& tokens);
  void stop_search();
  chess::Move book_move() const;

  std::istream& in_;
  std::ostream& out_;
  std::ostream* in_tie_;  // what in_ was tied to before the session untied it
  UciIdentity id_;
  BookLoader book_loader_;
  std::mutex out_mutex_;

  Engine engine_;
  chess::Board board_;
  std::vector<uint64_t> history_;  // keys of the game positions before board_
  // The last "go" waits for "stop" or "ponderhit" (infinite or ponder), or has no limit at all;
  // such a search is stopped at the end of the input.
  bool open_ended_search_ = false;
  bool search_has_limit_ = false;  // the last "go" gave a depth, nodes, a move time or a clock

  // Options
  int multipv_ = 1;
  // UCI_Chess960: positions are Chess960 games, castling is written king takes rook.
  bool chess960_ = false;
  bool own_book_ = false;
  bool book_best_move_ = false;
  int book_max_ply_ = 32;
  std::string book_file_;
  std::string default_book_file_;  // set_default_book(); empty: OwnBook defaults to false
  BookProbe book_;
};

}  // namespace bookforge::engine
