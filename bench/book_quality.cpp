// book_quality: how much a book's moves lose, with a UCI engine (Stockfish) as the judge.
//
// Every book move's regret is the best value among the position's moves minus the move's value,
// each value a fresh search one ply down at a fixed node count (cached by position), weighted by
// how often play from the book reaches the move. The method, and why moves are compared with
// moves rather than with the position's own eval, is docs/rescoring.md ("Measuring book
// quality").

#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "book/polyglot/probe.h"
#include "book/polyglot/reader.h"
#include "chess/movegen.h"
#include "chess/san.h"
#include "engine/search.h"
#include "engine/uci_client.h"

namespace bookforge {
namespace {

// A mate or a score beyond a rook's worth are alike for a book: clamping keeps one of them from
// deciding a mean on its own.
constexpr int kClampCp = 1000;
// Positions reached more than this many plies in are not followed (a book can hold a cycle).
constexpr int kMaxWalkPly = 80;

struct Options {
  std::vector<std::string> books;  // "label=path" or "path"
  std::string engine = "/usr/games/stockfish";
  uint64_t nodes = 300000;
  int positions = 300;
  std::string cache;
  int hash_mb = 16;
  int resamples = 1000;
  bool tsv = false;
  std::string games;  // a first column naming the games the books come from (markdown only)
  bool header = true;
  int agreement_depth = 0;    // the embedded engine's depth for the agreement figure; 0: none
  std::string agreement_out;  // where the agreement line goes ("": stdout, after the table)
};

// ---- The walk: where play by book weight goes -------------------------------------------------

struct BookMove {
  chess::Move move;
  double share = 0;  // of the position's book weight
};

struct ReachedPosition {
  chess::Board board;
  double reach = 0;  // expected number of visits when both sides play by book weight
  std::vector<BookMove> moves;
};

// The position's legal book moves with their weight shares; empty when the book has none or
// they all weigh zero (an engine playing by weight has nothing to pick there).
std::vector<BookMove> book_moves(const book::PolyglotBook& book, const chess::Board& board) {
  std::vector<BookMove> moves;
  double total = 0;
  for (const book::ProbedMove& p : book::probe_book(book, board)) {
    if (!p.move.is_ok() || p.entry.weight == 0) continue;
    moves.push_back({p.move, double(p.entry.weight)});
    total += p.entry.weight;
  }
  for (BookMove& b : moves) b.share /= total;
  return moves;
}

// Spreads the probability of play ply by ply from the start position; a position's reach is the
// sum over the plies it is reached at (transpositions add up).
std::vector<ReachedPosition> reach_positions(const book::PolyglotBook& book) {
  std::unordered_map<uint64_t, ReachedPosition> reached;
  std::unordered_map<uint64_t, std::pair<chess::Board, double>> frontier{
      {chess::Board().key(), {chess::Board(), 1.0}}};
  for (int ply = 0; ply < kMaxWalkPly && !frontier.empty(); ++ply) {
    std::unordered_map<uint64_t, std::pair<chess::Board, double>> next;
    for (auto& [key, at] : frontier) {
      auto [it, fresh] = reached.try_emplace(key);
      if (fresh) it->second = {at.first, 0, book_moves(book, at.first)};
      ReachedPosition& pos = it->second;
      if (pos.moves.empty()) continue;
      pos.reach += at.second;
      for (const BookMove& b : pos.moves) {
        chess::Board child = pos.board;
        chess::UndoInfo undo;
        child.make_move(b.move, undo);
        auto [slot, added] = next.try_emplace(child.key(), child, 0.0);
        slot->second.second += at.second * b.share;
      }
    }
    frontier = std::move(next);
  }
  std::vector<ReachedPosition> out;
  for (auto& [key, pos] : reached)
    if (pos.reach > 0) out.push_back(std::move(pos));
  // Most reached first; ties by key, so the choice does not depend on hash-table order.
  std::sort(out.begin(), out.end(), [](const ReachedPosition& a, const ReachedPosition& b) {
    return a.reach != b.reach ? a.reach > b.reach : a.board.key() < b.board.key();
  });
  return out;
}

// ---- The judge and its cache ------------------------------------------------------------------

// FEN without the move counters: the same position reached at another move number is the same.
std::string position_id(const chess::Board& board) {
  std::istringstream fields(board.fen());
  std::string placement, side, castling, ep;
  fields >> placement >> side >> castling >> ep;
  return placement + " " + side + " " + castling + " " + ep;
}

// Evals from the side to move's view, in centipawns, clamped, and the judge's best moves. The
// cache file holds one line per search: engine name, node count, position id, centipawns and
// the best move in UCI (tab-separated; files from before best moves were kept have four fields),
// appended as they come, so an interrupted run keeps what it judged.
class Judge {
 public:
  static Result<std::unique_ptr<Judge>> open(const Options& o) {
    std::unique_ptr<Judge> judge(new Judge(o));
    auto client =
        engine::UciClient::launch(o.engine, {{"Threads", "1"}, {"Hash", std::to_string(o.hash_mb)}});
    if (!client.ok()) return client.error();
    judge->client_ = std::move(*client);
    if (!o.cache.empty())
      if (Status s = judge->load_cache(); !s.ok()) return s.error();
    return judge;
  }

  Result<int> eval(const chess::Board& board) {
    const std::string id = position_id(board);
    if (auto hit = cache_.find(id); hit != cache_.end()) {
      ++hits_;
      return hit->second;
    }
    Result<Searched> found = search(board);
    if (!found.ok()) return found.error();
    if (Status s = remember(id, *found); !s.ok()) return s.error();
    return found->cp;
  }

  // The judge's best move (UCI; empty where there is no legal move). Cached with the eval; for a
  // position whose eval was cached before best moves were, searched again, and the cached eval
  // kept, so that the figures of earlier runs do not move.
  Result<std::string> best_move(const chess::Board& board) {
    const std::string id = position_id(board);
    if (auto hit = best_.find(id); hit != best_.end()) return hit->second;
    Result<Searched> found = search(board);
    if (!found.ok()) return found.error();
    if (auto hit = cache_.find(id); hit != cache_.end()) found->cp = hit->second;
    if (Status s = remember(id, *found); !s.ok()) return s.error();
    return found->best_move;
  }

  uint64_t searches() const { return searches_; }
  uint64_t hits() const { return hits_; }

 private:
  explicit Judge(const Options& o) : options_(o) {}

  struct Searched {
    int cp = 0;
    std::string best_move;  // UCI
  };

  Result<Searched> search(const chess::Board& board) {
    chess::MoveList legal;
    chess::generate_legal(board, legal);
    if (legal.count == 0) return Searched{board.in_check() ? -kClampCp : 0, ""};
    if (Status s = client_->new_game(); !s.ok()) return s.error();
    engine::SearchLimits limits;
    limits.nodes = options_.nodes;
    Result<engine::SearchResult> r = client_->search(board, limits);
    if (!r.ok()) return r.error();
    if (r->lines.empty()) return Error{"the engine gave no score for " + board.fen()};
    const engine::Score s = r->lines[0].score;
    const int cp =
        engine::is_mate_score(s) ? (s > 0 ? kClampCp : -kClampCp) : std::clamp<int>(s, -kClampCp, kClampCp);
    return Searched{cp, chess::move_to_uci(r->lines[0].move)};
  }

  Status remember(const std::string& id, const Searched& found) {
    ++searches_;
    cache_[id] = found.cp;
    best_[id] = found.best_move;
    if (options_.cache.empty()) return ok_status();
    std::ofstream out(options_.cache, std::ios::app);
    out << client_->name() << '\t' << options_.nodes << '\t' << id << '\t' << found.cp << '\t'
        << found.best_move << '\n';
    if (!out) return Error{"cannot write the eval cache " + options_.cache};
    return ok_status();
  }

  Status load_cache() {
    std::ifstream in(options_.cache);
    if (!in) return ok_status();  // a first run
    int line_number = 0;
    for (std::string line; std::getline(in, line);) {
      ++line_number;
      std::vector<std::string> fields;
      std::istringstream split(line);
      for (std::string f; std::getline(split, f, '\t');) fields.push_back(f);
      // A best move line of a position with no legal move ends in an empty field.
      if (line.ends_with('\t')) fields.emplace_back();
      char* end = nullptr;
      const bool shaped = fields.size() == 4 || fields.size() == 5;
      const long cp = shaped ? std::strtol(fields[3].c_str(), &end, 10) : 0;
      if (!shaped || end == fields[3].c_str() || *end != '\0')
        return Error{options_.cache + ":" + std::to_string(line_number) +
                     ": not an eval cache line (engine, nodes, position, centipawns[, best move])"};
      if (fields[0] != client_->name() || fields[1] != std::to_string(options_.nodes)) continue;
      cache_[fields[2]] = int(cp);
      if (fields.size() == 5) best_[fields[2]] = fields[4];
    }
    return ok_status();
  }

  const Options& options_;
  std::unique_ptr<engine::UciClient> client_;
  std::unordered_map<std::string, int> cache_;
  std::unordered_map<std::string, std::string> best_;  // where known
  uint64_t searches_ = 0, hits_ = 0;
};

// ---- Scoring a book ---------------------------------------------------------------------------

// The value of `move` for the side that plays it: minus the eval of the position it leads to.
Result<int> value_of(Judge& judge, const chess::Board& board, chess::Move move) {
  chess::Board child = board;
  chess::UndoInfo undo;
  child.make_move(move, undo);
  Result<int> after = judge.eval(child);
  if (!after.ok()) return after.error();
  return -*after;
}

// The judge's own best move in `board`, by the search of the position itself.
Result<chess::Move> judge_best_move(Judge& judge, const chess::Board& board) {
  Result<std::string> uci = judge.best_move(board);
  if (!uci.ok()) return uci.error();
  const chess::Move m = chess::uci_to_move(board, *uci);
  if (!m.is_ok()) return Error{"the judge's best move '" + *uci + "' is not legal in " + board.fen()};
  return m;
}

// One judged position: its reach and the share-weighted sums of its moves' regrets.
struct JudgedPosition {
  double reach = 0;
  double regret = 0;    // sum of share x regret
  double over_50 = 0;   // share of the moves losing more than 50 cp
  double over_100 = 0;  // ... more than 100 cp
  // The same sum with the position's own eval in place of the judge's best move's value (the
  // best value is the higher of that eval and the book moves' values), and the judge's own
  // move's regret by that reading (its floor).
  double regret_by_eval = 0;
  double floor_by_eval = 0;
};

Result<JudgedPosition> judge_position(Judge& judge, const ReachedPosition& pos) {
  Result<chess::Move> own_best = judge_best_move(judge, pos.board);
  if (!own_best.ok()) return own_best.error();
  Result<int> own_value = value_of(judge, pos.board, *own_best);
  if (!own_value.ok()) return own_value.error();
  Result<int> eval = judge.eval(pos.board);
  if (!eval.ok()) return eval.error();
  int best = *own_value, best_by_eval = *eval;
  std::vector<int> values;
  for (const BookMove& b : pos.moves) {
    Result<int> v = value_of(judge, pos.board, b.move);
    if (!v.ok()) return v.error();
    values.push_back(*v);
    best = std::max(best, *v);
    best_by_eval = std::max(best_by_eval, *v);
  }
  JudgedPosition j;
  j.reach = pos.reach;
  j.floor_by_eval = std::max(*eval, *own_value) - *own_value;
  for (size_t i = 0; i < pos.moves.size(); ++i) {
    const int regret = best - values[i];
    j.regret += pos.moves[i].share * regret;
    j.over_50 += regret > 50 ? pos.moves[i].share : 0;
    j.over_100 += regret > 100 ? pos.moves[i].share : 0;
    j.regret_by_eval += pos.moves[i].share * (best_by_eval - values[i]);
  }
  return j;
}

// A figure with its 95% bootstrap interval.
struct Estimate {
  double value = 0, low = 0, high = 0;
};

struct BookScore {
  Estimate regret, over_50, over_100, regret_by_eval, floor_by_eval;
  size_t positions = 0;
  double reach_judged = 0;  // the judged positions' share of all book play (sum of reach)
  double plies = 0;         // expected plies played from the book (the sum of every reach)
};

// Reach-weighted means of the five per-position figures (regret, > 50, > 100, and the regret and
// the floor by the position's eval), and their
// percentile intervals over resamplings of the judged positions (fixed seed: the same input
// prints the same table).
constexpr int kFigures = 5;

BookScore summarize(const std::vector<JudgedPosition>& judged, int resamples) {
  auto means = [](const std::vector<const JudgedPosition*>& sample) {
    double reach = 0, regret = 0, over_50 = 0, over_100 = 0, by_eval = 0, floor = 0;
    for (const JudgedPosition* j : sample) {
      reach += j->reach;
      regret += j->reach * j->regret;
      over_50 += j->reach * j->over_50;
      over_100 += j->reach * j->over_100;
      by_eval += j->reach * j->regret_by_eval;
      floor += j->reach * j->floor_by_eval;
    }
    return std::array<double, kFigures>{regret / reach, 100 * over_50 / reach, 100 * over_100 / reach,
                                        by_eval / reach, floor / reach};
  };
  std::vector<const JudgedPosition*> all;
  for (const JudgedPosition& j : judged) all.push_back(&j);
  const std::array<double, kFigures> point = means(all);

  std::mt19937_64 rng(20261123);
  std::uniform_int_distribution<size_t> pick(0, all.size() - 1);
  std::array<std::vector<double>, kFigures> draws;
  std::vector<const JudgedPosition*> sample(all.size());
  for (int r = 0; r < resamples; ++r) {
    for (auto& s : sample) s = all[pick(rng)];
    const std::array<double, kFigures> m = means(sample);
    for (int k = 0; k < kFigures; ++k) draws[k].push_back(m[k]);
  }
  std::array<Estimate, kFigures> e;
  for (int k = 0; k < kFigures; ++k) {
    e[k].value = e[k].low = e[k].high = point[k];
    if (draws[k].empty()) continue;
    std::sort(draws[k].begin(), draws[k].end());
    e[k].low = draws[k][size_t(0.025 * double(draws[k].size() - 1))];
    e[k].high = draws[k][size_t(std::ceil(0.975 * double(draws[k].size() - 1)))];
  }
  BookScore score;
  score.regret = e[0];
  score.over_50 = e[1];
  score.over_100 = e[2];
  score.regret_by_eval = e[3];
  score.floor_by_eval = e[4];
  score.positions = judged.size();
  return score;
}

// `judged` gets the positions judged.
Result<BookScore> score_book(Judge& judge, const std::string& path, const Options& o,
                             std::vector<chess::Board>& judged_positions) {
  Result<book::PolyglotBook> book = book::PolyglotBook::open(path);
  if (!book.ok()) return book.error();
  std::vector<ReachedPosition> reached = reach_positions(*book);
  if (reached.empty()) return Error{path + ": the book has no move in the start position"};
  double total_reach = 0;
  for (const ReachedPosition& p : reached) total_reach += p.reach;
  if (reached.size() > size_t(o.positions)) reached.resize(size_t(o.positions));

  std::vector<JudgedPosition> judged;
  double reach_judged = 0;
  for (size_t i = 0; i < reached.size(); ++i) {
    Result<JudgedPosition> j = judge_position(judge, reached[i]);
    if (!j.ok()) return j.error();
    judged.push_back(*j);
    judged_positions.push_back(reached[i].board);
    reach_judged += j->reach;
    if ((i + 1) % 25 == 0 || i + 1 == reached.size())
      std::fprintf(stderr, "\r%s: %zu/%zu positions (%llu searches, %llu cached)", path.c_str(), i + 1,
                   reached.size(), (unsigned long long)judge.searches(), (unsigned long long)judge.hits());
  }
  std::fprintf(stderr, "\n");
  BookScore score = summarize(judged, o.resamples);
  score.reach_judged = reach_judged / total_reach;
  score.plies = total_reach;
  return score;
}

// ---- Agreement of the embedded engine with the judge ---------------------------------------------

// How often the embedded engine, searching as the rescoring does (a fresh search to a fixed
// depth), picks the judge's best move, and what its choice loses by the judge's evals (the
// regret of the book metric, for one move played with certainty).
struct Agreement {
  size_t positions = 0, same = 0, over_50 = 0, over_100 = 0;
  double regret = 0;  // sum
};

Result<Agreement> measure_agreement(Judge& judge, const std::vector<chess::Board>& positions, int depth) {
  engine::Engine engine(16, 1);
  engine::SearchLimits limits;
  limits.depth = depth;
  Agreement a;
  for (const chess::Board& board : positions) {
    chess::MoveList legal;
    chess::generate_legal(board, legal);
    if (legal.count == 0) continue;
    Result<chess::Move> own_best = judge_best_move(judge, board);
    if (!own_best.ok()) return own_best.error();
    engine.new_game();
    const engine::SearchResult r = engine.search(board, {}, limits);
    if (!r.best_move.is_ok()) return Error{"the embedded engine found no move in " + board.fen()};
    // The book metric's regret for a book of this one move: the judge's best move's value, or
    // this move's where that is higher, minus this move's.
    Result<int> own_value = value_of(judge, board, *own_best);
    if (!own_value.ok()) return own_value.error();
    Result<int> value = value_of(judge, board, r.best_move);
    if (!value.ok()) return value.error();
    const int regret = std::max(*own_value, *value) - *value;
    ++a.positions;
    a.same += r.best_move == *own_best;
    a.regret += regret;
    a.over_50 += regret > 50;
    a.over_100 += regret > 100;
  }
  return a;
}

std::string agreement_line(const Agreement& a, int depth, const std::string& games) {
  const double n = double(std::max<size_t>(a.positions, 1));
  char line[512];
  std::snprintf(
      line, sizeof line,
      "%s%sembedded engine at depth %d on the %zu positions judged: the judge's best move in %.1f%% "
      "(%zu); mean regret of its move %.1f cp; losing > 50 cp %.1f%%, > 100 cp %.1f%%\n",
      games.c_str(), games.empty() ? "" : ": ", depth, a.positions, 100.0 * double(a.same) / n, a.same,
      a.regret / n, 100.0 * double(a.over_50) / n, 100.0 * double(a.over_100) / n);
  return line;
}

std::string interval(const Estimate& e, const char* unit) {
  char text[96];
  std::snprintf(text, sizeof text, "%.1f%s [%.1f, %.1f]", e.value, unit, e.low, e.high);
  return text;
}

int run(const Options& o) {
  Result<std::unique_ptr<Judge>> judge = Judge::open(o);
  if (!judge.ok()) {
    std::fprintf(stderr, "book_quality: %s\n", judge.error().message.c_str());
    return 1;
  }
  const std::string games_column = o.games.empty() ? "" : "| " + o.games + " ";
  if (!o.tsv && o.header) {
    std::printf(
        "%s| book | mean regret per book move | share of play on moves losing > 50 cp | > 100 cp | "
        "positions judged (their share of play) | book plies | regret against the position's eval | "
        "the judge's own move against it |\n",
        o.games.empty() ? "" : "| games ");
    std::printf("%s|---|---|---|---|---|---|---|---|\n", o.games.empty() ? "" : "|---");
  }
  std::vector<chess::Board> judged_positions;
  for (const std::string& spec : o.books) {
    const size_t eq = spec.find('=');
    const std::string label = eq == std::string::npos ? spec : spec.substr(0, eq);
    const std::string path = eq == std::string::npos ? spec : spec.substr(eq + 1);
    Result<BookScore> s = score_book(**judge, path, o, judged_positions);
    if (!s.ok()) {
      std::fprintf(stderr, "book_quality: %s\n", s.error().message.c_str());
      return 1;
    }
    if (o.tsv)
      std::printf(
          "%s\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%zu\t%.3f\t%.2f"
          "\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\n",
          label.c_str(), s->regret.value, s->regret.low, s->regret.high, s->over_50.value, s->over_50.low,
          s->over_50.high, s->over_100.value, s->over_100.low, s->over_100.high, s->positions,
          s->reach_judged, s->plies, s->regret_by_eval.value, s->regret_by_eval.low, s->regret_by_eval.high,
          s->floor_by_eval.value, s->floor_by_eval.low, s->floor_by_eval.high);
    else
      std::printf("%s| %s | %s | %s | %s | %zu (%.0f%%) | %.1f | %s | %.1f cp |\n", games_column.c_str(),
                  label.c_str(), interval(s->regret, " cp").c_str(), interval(s->over_50, "%").c_str(),
                  interval(s->over_100, "%").c_str(), s->positions, 100 * s->reach_judged, s->plies,
                  interval(s->regret_by_eval, " cp").c_str(), s->floor_by_eval.value);
    std::fflush(stdout);
  }
  if (o.agreement_depth > 0) {
    // Each position once, in the order first judged.
    std::vector<chess::Board> unique;
    std::unordered_map<std::string, bool> seen;
    for (const chess::Board& b : judged_positions)
      if (seen.emplace(position_id(b), true).second) unique.push_back(b);
    Result<Agreement> a = measure_agreement(**judge, unique, o.agreement_depth);
    if (!a.ok()) {
      std::fprintf(stderr, "book_quality: %s\n", a.error().message.c_str());
      return 1;
    }
    const std::string line = agreement_line(*a, o.agreement_depth, o.games);
    if (o.agreement_out.empty()) {
      std::printf("\n%s", line.c_str());
    } else {
      std::ofstream out(o.agreement_out, std::ios::app);
      out << line;
      if (!out) {
        std::fprintf(stderr, "book_quality: cannot write %s\n", o.agreement_out.c_str());
        return 1;
      }
    }
  }
  return 0;
}

}  // namespace
}  // namespace bookforge

int main(int argc, char** argv) {
  bookforge::Options o;
  CLI::App app{
      "Judges books with a UCI engine: the regret of the moves an engine playing from the book would play"};
  app.add_option("books", o.books, "Polyglot books, each as LABEL=PATH or PATH")->required();
  app.add_option("--engine", o.engine, "The judge, a UCI engine [/usr/games/stockfish]");
  app.add_option("--nodes", o.nodes, "Nodes per eval [300000]")->check(CLI::PositiveNumber);
  app.add_option("--positions", o.positions, "Judge the positions reached most often, this many [300]")
      ->check(CLI::PositiveNumber);
  app.add_option("--cache", o.cache, "Eval cache file (read, and appended to)");
  app.add_option("--hash", o.hash_mb, "The judge's hash in MB [16]")->check(CLI::PositiveNumber);
  app.add_option("--resamples", o.resamples, "Bootstrap resamples for the intervals [1000]")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--tsv", o.tsv,
               "Tab-separated rows: label, regret, low, high, >50 %, low, high, >100 %, low, high, "
               "positions, share of play judged, book plies, the regret against the position's eval, low, "
               "high, the judge's own move's regret against it, low, high");
  app.add_option("--games", o.games, "Add a first column naming the games the books were built from");
  app.add_flag("--header,!--no-header", o.header, "Print the table's header (the default) or its rows only");
  app.add_option("--agreement-depth", o.agreement_depth,
                 "Also measure how often the embedded engine at this depth plays the judge's best move, "
                 "on the positions judged [0: not measured]")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--agreement-out", o.agreement_out,
                 "Append the agreement line to this file instead of printing it after the table");
  CLI11_PARSE(app, argc, argv);
  return bookforge::run(o);
}
