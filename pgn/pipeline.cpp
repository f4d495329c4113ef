#include "pgn/pipeline.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "pgn/chunker.h"
#include "pgn/lexer.h"
#include "pgn/replay.h"
#include "pgn/source.h"

namespace bookforge::pgn {

namespace {

using Clock = std::chrono::steady_clock;

// A block on its way to a worker, with what the worker needs to number its games.
struct Job {
  Block block;
  uint64_t sequence = 0;  // blocks are numbered in input order
  size_t input = 0;       // index into options.inputs
  uint64_t first_global_game = 1;
};

// The reader fills it, the workers drain it in order. Bounded so the reader cannot run far
// ahead: memory stays at a few blocks per worker.
class JobQueue {
 public:
  explicit JobQueue(size_t capacity) : capacity_(capacity) {}

  // False when the queue was closed (stop requested).
  bool push(std::unique_ptr<Job> job) {
    std::unique_lock lock(mutex_);
    not_full_.wait(lock, [&] { return jobs_.size() < capacity_ || closed_; });
    if (closed_) return false;
    jobs_.push_back(std::move(job));
    not_empty_.notify_one();
    return true;
  }

  // nullptr once the queue is closed and drained.
  std::unique_ptr<Job> pop() {
    std::unique_lock lock(mutex_);
    not_empty_.wait(lock, [&] { return !jobs_.empty() || closed_; });
    if (jobs_.empty()) return nullptr;
    std::unique_ptr<Job> job = std::move(jobs_.front());
    jobs_.pop_front();
    not_full_.notify_one();
    return job;
  }

  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    not_empty_.notify_all();
    not_full_.notify_all();
  }

  // Stop: drop what is queued and wake everyone.
  void abort() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    jobs_.clear();
    not_empty_.notify_all();
    not_full_.notify_all();
  }

 private:
  size_t capacity_;
  std::mutex mutex_;
  std::condition_variable not_empty_, not_full_;
  std::deque<std::unique_ptr<Job>> jobs_;
  bool closed_ = false;
};

// With --strict the run stops at the first bad game in input order. Workers may find bad games
// out of order, so the earliest one wins and blocks after it are not needed.
class StrictFailure {
 public:
  void report(uint64_t sequence, const BadGame& game) {
    std::lock_guard lock(mutex_);
    if (!first_ || game.global_game_number < first_->global_game_number) first_ = game;
    uint64_t seq = stop_after_.load();
    while (sequence < seq && !stop_after_.compare_exchange_weak(seq, sequence)) {
    }
  }
  // Blocks after the failing one can be skipped.
  bool skip(uint64_t sequence) const { return sequence > stop_after_.load(); }
  bool failed() const { return stop_after_.load() != kNone; }
  const std::optional<BadGame>& first() const { return first_; }

 private:
  static constexpr uint64_t kNone = ~uint64_t(0);
  std::mutex mutex_;
  std::optional<BadGame> first_;
  std::atomic<uint64_t> stop_after_{kNone};
};

// A source whose bytes are also shown to options.on_input_bytes.
class ObservedSource final : public ByteSource {
 public:
  ObservedSource(ByteSource& source, size_t input, const PipelineOptions& options)
      : source_(source), input_(input), options_(options) {}
  Result<size_t> read(char* buffer, size_t size) override {
    Result<size_t> n = source_.read(buffer, size);
    if (n && *n > 0) options_.on_input_bytes(input_, std::string_view(buffer, *n));
    return n;
  }
  uint64_t bytes_consumed() const override { return source_.bytes_consumed(); }
  uint64_t total_bytes() const override { return source_.total_bytes(); }
  const std::string& name() const override { return source_.name(); }

 private:
  ByteSource& source_;
  size_t input_;
  const PipelineOptions& options_;
};

std::string describe_bad_game(const BadGame& bad) {
  return bad.file + ":" + std::to_string(bad.line) + ": game " + std::to_string(bad.game_number) + ": " +
         bad.detail;
}

uint64_t total_input_bytes(const std::vector<std::string>& inputs) {
  uint64_t total = 0;
  for (const std::string& path : inputs) {
    if (path == "-") return 0;
    std::error_code ec;
    uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) return 0;
    total += size;
  }
  return total;
}

// `recognised` counts, per input, this worker's games that looked like PGN (WorkerStats).
void run_worker(const PipelineOptions& options, JobQueue& queue, BufferPool& pool, GameSink& sink,
                WorkerStats& stats, std::vector<uint64_t>& recognised, StrictFailure& strict,
                std::atomic<uint64_t>& games_done) {
  GameReplayer replayer(options, sink, stats);
  while (std::unique_ptr<Job> job = queue.pop()) {
    if (options.strict && strict.skip(job->sequence)) continue;
    const uint64_t recognised_before = stats.recognised;
    const std::string& file = options.inputs[job->input];
    const Block& block = job->block;
    for (size_t i = 0; i < block.games.size(); ++i) {
      replayer.set_origin(&file, block.first_game_in_file + i, job->first_global_game + i,
                          block.offset_in_file + block.games[i].begin);
      visit_game(block, block.games[i], replayer);
      if (options.strict && replayer.last_game_bad()) {
        strict.report(job->sequence, replayer.last_bad_game());
        break;
      }
    }
    recognised[job->input] += stats.recognised - recognised_before;
    games_done.fetch_add(block.games.size(), std::memory_order_relaxed);
    pool.give(std::move(job->block.data));
  }
  sink.on_end();
}

// Keeps the games of `block` that start in `range` (PipelineOptions::game_starts); true once a
// game starts past the range, so that nothing after it needs reading. A game's start is its
// first byte in the input, never before the previous game's (an oversized game's bytes were
// dropped: it starts where the previous one did), so the games kept are consecutive.
bool keep_games_starting_in(const ByteRange& range, Block& block) {
  uint64_t start = block.offset_in_file;
  size_t first = block.games.size(), last = block.games.size();
  for (size_t i = 0; i < block.games.size(); ++i) {
    start = std::max(start, block.offset_in_file + block.games[i].begin);
    if (start < range.begin) continue;
    if (start >= range.end) {
      last = i;
      break;
    }
    first = std::min(first, i);
  }
  const bool past_end = last < block.games.size();
  first = std::min(first, last);
  block.games.erase(block.games.begin() + long(last), block.games.end());
  block.games.erase(block.games.begin(), block.games.begin() + long(first));
  block.first_game_in_file += first;
  return past_end;
}

// The first input in which no game looked like PGN: not PGN, or empty. A part of an input
// (PipelineOptions::game_starts) in which no game starts says nothing about the input.
std::optional<Error> input_without_games(const PipelineOptions& options,
                                         const std::vector<std::vector<uint64_t>>& recognised,
                                         const std::vector<uint64_t>& input_bytes,
                                         const std::vector<uint64_t>& games_queued) {
  for (size_t input = 0; input < options.inputs.size(); ++input) {
    if (!options.game_starts.empty() && games_queued[input] == 0) continue;
    uint64_t games = 0;
    for (const std::vector<uint64_t>& worker : recognised) games += worker[input];
    if (games > 0) continue;
    const std::string& path = options.inputs[input];
    const std::string name = path == "-" ? "<stdin>" : path;
    if (input_bytes[input] == 0) return Error{name + ": empty input: no PGN game in it"};
    return Error{name + ": not PGN: no game with a tag section or a legal move in its " +
                 std::to_string(input_bytes[input]) + " bytes"};
  }
  return std::nullopt;
}

}  // namespace

int pipeline_threads(const PipelineOptions& options) {
  if (options.threads > 0) return options.threads;
  return std::max(1, int(std::thread::hardware_concurrency()));
}

Result<ReadStats> read_games(const PipelineOptions& options, const SinkFactory& sinks) {
  const Clock::time_point start = Clock::now();
  const int threads = pipeline_threads(options);

  // Step 1. One sink and one set of counters per worker, created before any thread starts.
  std::vector<GameSink*> worker_sinks;
  for (int i = 0; i < threads; ++i) worker_sinks.push_back(&sinks(i));
  std::vector<WorkerStats> worker_stats(static_cast<size_t>(threads));
  std::vector<std::vector<uint64_t>> recognised(size_t(threads),
                                                std::vector<uint64_t>(options.inputs.size()));
  std::vector<uint64_t> input_bytes(options.inputs.size());

  JobQueue queue(size_t(threads) * 2);
  BufferPool pool;
  StrictFailure strict;
  std::atomic<uint64_t> games_done{0};
  std::vector<std::thread> workers;
  for (int i = 0; i < threads; ++i)
    workers.emplace_back(run_worker, std::cref(options), std::ref(queue), std::ref(pool),
                         std::ref(*worker_sinks[size_t(i)]), std::ref(worker_stats[size_t(i)]),
                         std::ref(recognised[size_t(i)]), std::ref(strict), std::ref(games_done));

  // Step 2. This thread reads and decompresses, cuts blocks and queues them in order.
  const bool progress = options.on_progress && options.progress != ProgressMode::kNever;
  Progress snapshot;
  snapshot.total_bytes = total_input_bytes(options.inputs);
  Clock::time_point next_report = start;
  auto report = [&](uint64_t bytes, bool done) {
    snapshot.bytes_read = bytes;
    snapshot.games = games_done.load(std::memory_order_relaxed);
    snapshot.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    snapshot.done = done;
    options.on_progress(snapshot);
  };

  std::optional<Error> failure;
  uint64_t bytes_before = 0;  // consumed by the inputs already finished
  uint64_t sequence = 0;
  uint64_t global_games = 0;
  std::vector<uint64_t> games_queued(options.inputs.size());
  for (size_t input = 0; input < options.inputs.size() && !failure; ++input) {
    Result<std::unique_ptr<ByteSource>> source = open_source(options.inputs[input]);
    if (!source) {
      failure = source.error();
      break;
    }
    std::optional<ObservedSource> observed;
    if (options.on_input_bytes) observed.emplace(**source, input, options);
    Chunker chunker(observed ? *observed : **source, options.block_size, options.max_game_bytes, &pool);
    for (;;) {
      if (options.strict && strict.failed()) break;
      auto job = std::make_unique<Job>();
      Result<bool> more = chunker.next(job->block);
      if (!more) {
        failure = more.error();
        break;
      }
      if (!*more) break;
      const bool past_part =
          !options.game_starts.empty() && keep_games_starting_in(options.game_starts[input], job->block);
      if (job->block.games.empty()) {
        pool.give(std::move(job->block.data));
        if (past_part) break;
        continue;
      }
      games_queued[input] += job->block.games.size();
      job->sequence = sequence++;
      job->input = input;
      job->first_global_game = global_games + 1;
      global_games += job->block.games.size();
      if (!queue.push(std::move(job)) || past_part) break;
      if (progress && Clock::now() >= next_report) {
        report(bytes_before + (*source)->bytes_consumed(), false);
        next_report = Clock::now() + std::chrono::milliseconds(250);
      }
    }
    input_bytes[input] = (*source)->bytes_consumed();
    bytes_before += input_bytes[input];
  }

  // Step 3. Let the workers finish, then add up their counts.
  if (failure) {
    queue.abort();
  } else {
    queue.close();
  }
  for (std::thread& t : workers) t.join();
  if (failure) return *failure;
  if (options.strict && strict.first())
    return Error{"bad game (--strict): " + describe_bad_game(*strict.first())};
  if (std::optional<Error> not_pgn = input_without_games(options, recognised, input_bytes, games_queued))
    return *not_pgn;

  ReadStats stats;
  for (const WorkerStats& w : worker_stats) w.merge_into(stats);
  std::sort(stats.bad_examples.begin(), stats.bad_examples.end(),
            [](const BadGame& a, const BadGame& b) { return a.global_game_number < b.global_game_number; });
  if (stats.bad_examples.size() > size_t(std::max(options.max_reported_bad_games, 0)))
    stats.bad_examples.resize(size_t(std::max(options.max_reported_bad_games, 0)));
  stats.bytes = bytes_before;
  stats.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (progress) report(bytes_before, true);
  return stats;
}

}  // namespace bookforge::pgn
