#include "engine/uci_client.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

#include "chess/san.h"

extern char** environ;

namespace bookforge::engine {
namespace {

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// A line as the engine last reported it for one move: its rank then and when that was.
struct RankedLine {
  PvLine line;
  int rank = 0;
  uint64_t report = 0;
};

bool to_int(const std::string& s, int64_t& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

// The CPU time a process has used, user and system, all its threads together, in ms; -1 when it
// cannot be read (no /proc).
int64_t process_cpu_ms(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  if (!std::getline(in, stat)) return -1;
  // "pid (name) state ppid ...": the name may hold spaces and parentheses, so the fields are
  // counted from the last ')'. After it come state, ppid, pgrp, session, tty_nr, tpgid, flags,
  // minflt, cminflt, majflt and cmajflt, then utime and stime in clock ticks.
  const size_t name_end = stat.rfind(')');
  if (name_end == std::string::npos) return -1;
  std::istringstream fields(stat.substr(name_end + 1));
  std::string skipped;
  for (int i = 0; i < 11; ++i) fields >> skipped;
  int64_t utime = 0, stime = 0;
  if (!(fields >> utime >> stime)) return -1;
  static const int64_t ticks_per_second = ::sysconf(_SC_CLK_TCK);
  return (utime + stime) * 1000 / ticks_per_second;
}

std::string seconds(int64_t ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", double(ms) / 1000);
  return text;
}

}  // namespace

// One wait for a reply, measured as uci_client.h says: in the engine's CPU time, which a busy
// engine uses up, and in wall-clock time without any CPU used, which a sleeping engine runs up.
// The idle allowance is ten times the limit because a starved engine, runnable but not scheduled,
// also uses no CPU for a while; at nice 19 it still gets a slice every second or so (its CPU
// count then moves and the idle time starts over), and an engine stopped by a signal for a few
// seconds must not be mistaken for a hung one.
class UciClient::ReplyWait {
 public:
  ReplyWait(std::string awaited, pid_t pid, int threads, int64_t limit_ms)
      : awaited_(std::move(awaited)),
        pid_(pid),
        threads_(threads),
        cpu_limit_ms_(int64_t(threads) * limit_ms),
        idle_limit_ms_(10 * limit_ms),
        start_ms_(now_ms()),
        cpu_at_start_ms_(process_cpu_ms(pid)),
        last_cpu_ms_(0),
        last_progress_ms_(start_ms_) {}

  // "bestmove from engine ... for <fen>": what the wait is for.
  const std::string& awaited() const { return awaited_; }

  // Empty while the engine may still answer; otherwise how long it was waited for.
  std::optional<std::string> overdue() {
    const int64_t now = now_ms();
    const int64_t wall = now - start_ms_;
    const int64_t cpu = cpu_used_ms(wall);
    if (cpu != last_cpu_ms_) {
      last_cpu_ms_ = cpu;
      last_progress_ms_ = now;
    }
    if (cpu > cpu_limit_ms_) return "after " + seconds(cpu) + " of its CPU time (" + seconds(wall) + " wall)";
    if (now - last_progress_ms_ > idle_limit_ms_)
      return "after " + seconds(wall) + " wall, idle (no CPU used) for the last " +
             seconds(now - last_progress_ms_) + " (" + seconds(cpu) + " of its CPU time)";
    return std::nullopt;
  }

  // How long to wait for output before looking at the engine's CPU time again.
  static constexpr int kCheckEveryMs = 100;

 private:
  int64_t cpu_used_ms(int64_t wall_ms) const {
    const int64_t cpu = process_cpu_ms(pid_);
    // Without /proc, the engine is taken to be as busy as it could be: the wait is then
    // limited by the wall clock.
    if (cpu < 0 || cpu_at_start_ms_ < 0) return wall_ms * threads_;
    return cpu - cpu_at_start_ms_;
  }

  std::string awaited_;
  pid_t pid_;
  int threads_;
  int64_t cpu_limit_ms_;
  int64_t idle_limit_ms_;
  int64_t start_ms_;
  int64_t cpu_at_start_ms_;
  int64_t last_cpu_ms_;       // the CPU used at the last look
  int64_t last_progress_ms_;  // when that count last moved
};

Score uci_score_to_score(const std::string& kind, int64_t value) {
  if (kind == "mate") return value > 0 ? mate_in(int(2 * value - 1)) : mated_in(int(-2 * value));
  return Score(std::clamp<int64_t>(value, -kScoreMateInMaxPly + 1, kScoreMateInMaxPly - 1));
}

Result<std::unique_ptr<UciClient>> UciClient::launch(
    const std::string& path, const std::vector<std::pair<std::string, std::string>>& options,
    int64_t timeout_ms) {
  // A write to an engine that has died must be an error, not the end of this process.
  ::signal(SIGPIPE, SIG_IGN);
  int to_child[2], from_child[2];
  if (::pipe2(to_child, O_CLOEXEC) != 0)
    return Error{"cannot create a pipe: " + std::string(std::strerror(errno))};
  if (::pipe2(from_child, O_CLOEXEC) != 0) {
    ::close(to_child[0]);
    ::close(to_child[1]);
    return Error{"cannot create a pipe: " + std::string(std::strerror(errno))};
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, to_child[0], 0);
  posix_spawn_file_actions_adddup2(&actions, from_child[1], 1);
  std::vector<char*> argv{const_cast<char*>(path.c_str()), nullptr};
  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, path.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(to_child[0]);
  ::close(from_child[1]);
  if (rc != 0) {
    ::close(to_child[1]);
    ::close(from_child[0]);
    return Error{"cannot start engine " + path + ": " + std::strerror(rc)};
  }

  std::unique_ptr<UciClient> client(new UciClient());
  client->path_ = path;
  client->pid_ = pid;
  client->to_engine_ = to_child[1];
  client->from_engine_ = from_child[0];

  if (Status s = client->send("uci"); !s.ok()) return s.error();
  ReplyWait uciok = client->wait_for("uciok", timeout_ms);
  for (;;) {
    Result<std::string> line = client->read_line(uciok);
    if (!line.ok()) return line.error();
    if (line->rfind("id name ", 0) == 0) client->name_ = line->substr(8);
    if (*line == "uciok") break;
  }
  for (const auto& [name, value] : options) {
    if (Status s = client->send("setoption name " + name + " value " + value); !s.ok()) return s.error();
    int64_t threads = 0;
    if (::strcasecmp(name.c_str(), "Threads") == 0 && to_int(value, threads) && threads > 1)
      client->threads_ = int(threads);
  }
  if (Status s = client->expect("readyok", timeout_ms); !s.ok()) return s.error();
  return client;
}

UciClient::~UciClient() {
  if (pid_ <= 0) return;
  (void)send("quit");
  ::close(to_engine_);
  int status = 0;
  const int64_t deadline = now_ms() + 1000;
  while (::waitpid(pid_, &status, WNOHANG) == 0) {
    if (now_ms() > deadline) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ::close(from_engine_);
}

Status UciClient::send(const std::string& line) {
  const std::string text = line + "\n";
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(to_engine_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Error{"engine " + path_ + " is gone (" + std::strerror(errno) + ")"};
    done += size_t(n);
  }
  return ok_status();
}

UciClient::ReplyWait UciClient::wait_for(const std::string& what, int64_t limit_ms,
                                         const std::string& about) const {
  return ReplyWait(what + " from engine " + path_ + about, pid_, threads_, limit_ms);
}

Result<std::string> UciClient::read_line(ReplyWait& wait) {
  for (;;) {
    if (const size_t eol = buffer_.find('\n'); eol != std::string::npos) {
      std::string line = buffer_.substr(0, eol);
      buffer_.erase(0, eol + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    if (std::optional<std::string> waited = wait.overdue())
      return Error{"no " + wait.awaited() + " " + *waited};
    pollfd p{from_engine_, POLLIN, 0};
    const int ready = ::poll(&p, 1, ReplyWait::kCheckEveryMs);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    char chunk[4096];
    const ssize_t n = ::read(from_engine_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Error{"no " + wait.awaited() + ": the engine exited"};
    buffer_.append(chunk, size_t(n));
  }
}

Status UciClient::expect(const std::string& token, int64_t timeout_ms) {
  if (Status s = send("isready"); !s.ok()) return s;
  ReplyWait wait = wait_for(token, timeout_ms);
  for (;;) {
    Result<std::string> line = read_line(wait);
    if (!line.ok()) return line.error();
    if (*line == token) return ok_status();
  }
}

Status UciClient::new_game() {
  if (Status s = send("ucinewgame"); !s.ok()) return s;
  return expect("readyok", 30000);
}

Result<std::optional<Score>> UciClient::static_eval(const chess::Board& board) {
  if (Status s = send("position fen " + board.fen()); !s.ok()) return s.error();
  if (Status s = send("eval"); !s.ok()) return s.error();
  ReplyWait reply = wait_for("Final evaluation", 10000, " for " + board.fen());
  for (;;) {
    Result<std::string> text = read_line(reply);
    if (!text.ok()) return text.error();
    // "Final evaluation       +0.35 (white side) [...]", or "Final evaluation: none (in check)".
    constexpr std::string_view kFinal = "Final evaluation";
    if (text->rfind(kFinal, 0) != 0) continue;
    std::istringstream in(text->substr(kFinal.size()));
    double pawns = 0;
    if (!(in >> pawns)) return std::optional<Score>();
    return std::optional<Score>(Score(std::lround(pawns * 100)));
  }
}

Result<SearchResult> UciClient::search(const chess::Board& board, const SearchLimits& limits,
                                       int64_t grace_ms) {
  if (!limits.depth && !limits.nodes && !limits.clock.movetime_ms)
    return Error{"an external search needs a depth, node or time limit"};
  const int multipv = std::max(1, limits.multipv);
  if (multipv != multipv_) {
    if (Status s = send("setoption name MultiPV value " + std::to_string(multipv)); !s.ok()) return s.error();
    multipv_ = multipv;
  }
  std::string go = "go";
  if (limits.depth) go.append(" depth ").append(std::to_string(limits.depth));
  if (limits.nodes) go.append(" nodes ").append(std::to_string(limits.nodes));
  if (limits.clock.movetime_ms) go.append(" movetime ").append(std::to_string(limits.clock.movetime_ms));
  if (!limits.search_moves.empty()) {
    go += " searchmoves";
    for (chess::Move m : limits.search_moves) go.append(" ").append(chess::move_to_uci(m));
  }
  if (Status s = send("position fen " + board.fen()); !s.ok()) return s.error();
  if (Status s = send(go); !s.ok()) return s.error();

  const int64_t start = now_ms();
  ReplyWait bestmove = wait_for("bestmove", limits.clock.movetime_ms + grace_ms, " for " + board.fen());
  SearchResult result;
  // Each move's latest exact line, keyed by its first move: the engine reorders its lines
  // between reports and may stop part way through an iteration, so the line last reported at a
  // rank need not be the line of the move last reported there.
  std::vector<RankedLine> lines;
  uint64_t reports = 0;
  for (;;) {
    Result<std::string> text = read_line(bestmove);
    if (!text.ok()) {
      (void)send("stop");
      return Error{text.error().message};
    }
    std::istringstream in(*text);
    std::string word;
    in >> word;
    if (word == "bestmove") {
      std::string best;
      in >> best;
      result.best_move = chess::uci_to_move(board, best);
      break;
    }
    if (word != "info") continue;
    // info [depth d] [seldepth s] [multipv k] [score cp|mate v [lowerbound|upperbound]]
    //      [nodes n] ... [pv ...]
    PvLine line;
    int index = 1;
    bool has_score = false, bounded = false, has_pv = false;
    for (std::string key; in >> key;) {
      int64_t v = 0;
      if (key == "pv") {
        chess::Board b = board;
        for (std::string mv; in >> mv;) {
          const chess::Move m = chess::uci_to_move(b, mv);
          if (!m.is_ok()) break;
          line.pv.push_back(m);
          chess::UndoInfo undo;
          b.make_move(m, undo);
        }
        has_pv = !line.pv.empty();
      } else if (key == "score") {
        std::string kind, value;
        in >> kind >> value;
        if (to_int(value, v)) line.score = uci_score_to_score(kind, v), has_score = true;
      } else if (key == "lowerbound" || key == "upperbound") {
        bounded = true;
      } else if (key == "string") {
        break;
      } else {
        std::string value;
        if (!(in >> value) || !to_int(value, v)) continue;
        if (key == "depth")
          line.depth = int(v);
        else if (key == "seldepth")
          line.seldepth = int(v);
        else if (key == "multipv")
          index = int(v);
        else if (key == "nodes")
          result.nodes = uint64_t(v);
      }
    }
    if (!has_score || !has_pv || bounded || index < 1 || index > multipv) continue;
    line.move = line.pv[0];
    result.depth = std::max(result.depth, line.depth);
    auto same_move = std::find_if(lines.begin(), lines.end(),
                                  [&](const RankedLine& r) { return r.line.move == line.move; });
    if (same_move == lines.end()) same_move = lines.insert(lines.end(), RankedLine{});
    *same_move = RankedLine{std::move(line), index, ++reports};
  }
  // Best first by the rank each move last had; where two moves last had the same rank, the one
  // reported there more recently holds it. Moves that fell out of the lines asked for go.
  std::sort(lines.begin(), lines.end(), [](const RankedLine& a, const RankedLine& b) {
    return a.rank != b.rank ? a.rank < b.rank : a.report > b.report;
  });
  if (lines.size() > size_t(multipv)) lines.resize(size_t(multipv));
  for (RankedLine& r : lines) result.lines.push_back(std::move(r.line));
  result.time_ms = now_ms() - start;
  if (!result.lines.empty() && result.lines[0].pv.size() > 1) result.ponder_move = result.lines[0].pv[1];
  return result;
}

}  // namespace bookforge::engine
