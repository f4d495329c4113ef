#include "book/verdict.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>

#include "base/text_fields.h"
#include "book/position_searcher.h"
#include "engine/search.h"

namespace bookforge::book {
namespace {

constexpr const char* kEmbedded = "embedded";
constexpr const char* kEmbeddedClassical = "embedded-classical";

// Every position gets the same two searches, in the same order, from a cleared state: the
// first over all legal moves finds the engine's best move; the second scores the candidates and
// that move together, in one multi-line search, so that every score the margin compares comes
// from the same search (two separate searches at a low depth disagree by more than a margin).
// The verdict therefore depends on the position and the limits alone, not on the options that
// read it (--suspicious) nor on the thread that searched it.
Result<Verdict> judge(PositionSearcher& searcher, const PositionToJudge& pos) {
  Verdict v;
  std::vector<chess::Move> moves;
  for (chess::Move m : pos.candidates)
    if (m.is_ok()) moves.push_back(m);
  v.scores.assign(pos.candidates.size(), engine::kScoreNone);
  if (moves.empty()) return v;

  Result<engine::SearchResult> all = searcher.search(*pos.board, {}, 1, true);
  if (!all.ok()) return all.error();
  v.nodes += all->nodes;
  if (all->best_move.is_ok() && std::find(moves.begin(), moves.end(), all->best_move) == moves.end())
    moves.push_back(all->best_move);
  Result<engine::SearchResult> r = searcher.search(*pos.board, moves, int(moves.size()), false);
  if (!r.ok()) return r.error();
  v.nodes += r->nodes;
  for (const engine::PvLine& line : r->lines)
    if (line.move == all->best_move) v.best = line.move, v.best_score = line.score;
  for (size_t i = 0; i < pos.candidates.size(); ++i)
    for (const engine::PvLine& line : r->lines)
      if (line.move == pos.candidates[i]) v.scores[i] = line.score;
  complete_verdict(pos.candidates, v);
  return v;
}

std::string limit_text(uint64_t value) { return value ? std::to_string(value) : "none"; }

}  // namespace

std::string RescoreLimits::engine_name() const {
  if (engine_path.empty()) return classical_eval ? kEmbeddedClassical : kEmbedded;
  return std::filesystem::path(engine_path).filename().string();
}

std::vector<std::string> RescoreLimits::lines() const {
  return {"depth " + std::to_string(depth), "nodes " + std::to_string(nodes), "engine " + engine_name(),
          "hash " + std::to_string(hash_mb)};
}

Result<RescoreLimits> RescoreLimits::from_lines(const std::vector<std::string>& lines, size_t first,
                                                const std::function<std::string(size_t)>& where) {
  RescoreLimits limits;
  const char* names[] = {"depth", "nodes", "engine", "hash"};
  for (size_t n = 0; n < 4; ++n) {
    const size_t index = first + n;
    const std::string name = std::string(names[n]) + " ";
    if (index >= lines.size() || !lines[index].starts_with(name))
      return Error{where(std::min(index, lines.size())) + ": expected the line '" + name + "...'"};
    const std::string value = lines[index].substr(name.size());
    uint64_t number = 0;
    if (n == 2) {
      limits.classical_eval = value == kEmbeddedClassical;
      limits.engine_path = value == kEmbedded || value == kEmbeddedClassical ? "" : value;
    } else if (!parse_whole(value, number) || (n != 1 && number > uint64_t(1) << 30)) {
      return Error{where(index) + ": '" + value + "' is not a " + names[n]};
    } else if (n == 0) {
      limits.depth = int(number);
    } else if (n == 1) {
      limits.nodes = number;
    } else {
      limits.hash_mb = int(number);
    }
  }
  return limits;
}

std::optional<std::string> limits_difference(const RescoreLimits& file_limits, const std::string& file,
                                             const RescoreLimits& build) {
  auto differ = [&](const std::string& what, const std::string& in_file, const std::string& here) {
    return "rescore " + what + ": " + in_file + " in " + file + ", " + here + " in this build";
  };
  if (file_limits.depth != build.depth)
    return differ("depth", limit_text(uint64_t(file_limits.depth)), limit_text(uint64_t(build.depth)));
  if (file_limits.nodes != build.nodes)
    return differ("nodes", limit_text(file_limits.nodes), limit_text(build.nodes));
  if (file_limits.engine_name() != build.engine_name())
    return differ("engine", file_limits.engine_name(), build.engine_name());
  if (file_limits.hash_mb != build.hash_mb)
    return differ("hash", std::to_string(file_limits.hash_mb) + " MB", std::to_string(build.hash_mb) + " MB");
  return std::nullopt;
}

void complete_verdict(std::span<const chess::Move> candidates, Verdict& v) {
  v.searched = std::any_of(candidates.begin(), candidates.end(), [](chess::Move m) { return m.is_ok(); });
  v.best_candidate = -1;
  for (size_t i = 0; i < candidates.size(); ++i)
    if (v.best.is_ok() && candidates[i] == v.best) v.best_candidate = int(i);
}

Result<std::vector<Verdict>> judge_positions(std::span<const PositionToJudge> positions,
                                             const RescoreLimits& limits, int threads,
                                             const std::function<void(uint64_t, uint64_t)>& on_progress) {
  std::vector<Verdict> verdicts(positions.size());
  std::atomic<uint64_t> done{0};
  std::mutex progress_mutex;
  auto last_report = std::chrono::steady_clock::now();
  const uint64_t total = positions.size();
  Status judged = search_each(positions.size(), limits, threads, [&](PositionSearcher& searcher, size_t k) {
    Result<Verdict> v = judge(searcher, positions[k]);
    if (!v.ok()) return Status(Error{positions[k].board->fen() + ": " + v.error().message});
    verdicts[k] = std::move(*v);
    const uint64_t finished = done.fetch_add(1) + 1;
    if (on_progress) {
      std::lock_guard lock(progress_mutex);
      const auto now = std::chrono::steady_clock::now();
      if (finished == total || now - last_report > std::chrono::milliseconds(250)) {
        last_report = now;
        on_progress(finished, total);
      }
    }
    return ok_status();
  });
  if (!judged.ok()) return judged.error();
  return verdicts;
}

}  // namespace bookforge::book
