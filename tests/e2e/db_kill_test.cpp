// Crash safety of `bookforge db add`: the process is killed (SIGKILL) at many moments of an add,
// and the store must then hold exactly what it held before the command, or everything the
// command added; never a part. The moments are spread over the whole run and packed into its
// merge phase (timed from an uninterrupted run), where the store is being written.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <regex>
#include <thread>

#include "e2e/db_helpers.h"
#include "store/add.h"

extern char** environ;

namespace bookforge::test {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct Killed {
  bool by_signal = false;  // false: the add finished before the kill
};

// Starts bookforge with the arguments, kills it after `delay` unless it finished, and reaps it.
Killed run_and_kill(const std::vector<std::string>& args, std::chrono::microseconds delay) {
  std::vector<std::string> argv{BOOKFORGE_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> raw;
  for (auto& a : argv) raw.push_back(a.data());
  raw.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, raw[0], &actions, nullptr, raw.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  EXPECT_EQ(rc, 0);
  if (rc != 0) return {};
  std::this_thread::sleep_for(delay);
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return {WIFSIGNALED(status)};
}

struct Timing {
  double wall = 0, read = 0, merge = 0;
};

Timing timed_add(const std::vector<std::string>& args) {
  auto start = Clock::now();
  CommandResult r = run_bookforge(args);
  Timing t;
  t.wall = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::smatch m;
  if (std::regex_search(r.out, m, std::regex("read ([0-9.]+) s, merge ([0-9.]+) s"))) {
    t.read = std::stod(m[1]);
    t.merge = std::stod(m[2]);
  }
  return t;
}

// Kill moments: `spread` spread over the whole run, `in_merge` packed into the merge phase.
std::vector<std::chrono::microseconds> kill_moments(const Timing& t, int spread, int in_merge) {
  std::vector<std::chrono::microseconds> out;
  auto us = [](double seconds) { return std::chrono::microseconds(int64_t(seconds * 1e6)); };
  for (int i = 0; i < spread; ++i) out.push_back(us(t.wall * (i + 0.5) / spread));
  const double merge_start = std::max(0.0, t.wall - t.merge);
  for (int i = 0; i < in_merge; ++i) out.push_back(us(merge_start + t.merge * (i + 0.5) / in_merge));
  return out;
}

int iterations() { return std::getenv("BOOKFORGE_LONG_TESTS") ? 4 : 1; }

class DbKill : public ::testing::Test {
 protected:
  void SetUp() override {
    // A larger input than the samples, so that the run has a merge phase worth aiming at.
    std::string big;
    for (int i = 0; i < 3; ++i)
      big += read_file(sample("twic0920-2000.pgn")) + "\n" + read_file(sample("lichess-2016-05-1000.pgn")) +
             "\n";
    write_file(dir_ / "big.pgn", big);
  }

  // What a reader of the store sees: every (key, move) row, the list of added sources and the
  // games they added.
  static std::string state(const fs::path& db) {
    return dump_tree(db) + sql_rows(db, "SELECT name FROM sources ORDER BY id") +
           sql_rows(db, "SELECT count(*), min(fingerprint), max(fingerprint) FROM games");
  }

  // A store holding one sample, which each test then adds the big input to.
  static void make_base(const fs::path& base) {
    ASSERT_EQ(run_bookforge({"db", "add", sample("lichess-2016-05-1000.pgn").string(), "--db", base.string(),
                             "--progress", "never"})
                  .exit_code,
              0);
  }

  std::vector<std::string> add_args(const fs::path& db) const {
    return {"db",         "add",  (dir_ / "big.pgn").string(), "--db", db.string(), "--threads", "1",
            "--progress", "never"};
  }

  TempDir dir_;
};

TEST_F(DbKill, AKilledAddLeavesTheStoreBeforeOrAfterNeverBetween) {
  const fs::path base = dir_ / "base.sqlite", reference = dir_ / "reference.sqlite",
                 victim = dir_ / "victim.sqlite";
  ASSERT_NO_FATAL_FAILURE(make_base(base));
  const std::string before = state(base);
  fs::copy_file(base, reference);
  const Timing timing = timed_add(add_args(reference));
  const std::string after = state(reference);
  ASSERT_NE(before, after);

  int killed_before = 0, killed_after = 0, finished = 0, killed_with_wal = 0;
  // Kills the add after `delay`; true if the store then holds the after-state.
  auto attempt = [&](std::chrono::microseconds delay) {
    fs::remove(victim);
    fs::remove(fs::path(victim.string() + "-wal"));
    fs::remove(fs::path(victim.string() + "-shm"));
    fs::copy_file(base, victim);
    Killed k = run_and_kill(add_args(victim), delay);
    std::error_code ec;
    const auto wal_size = fs::file_size(victim.string() + "-wal", ec);
    if (k.by_signal && !ec && wal_size > 0) ++killed_with_wal;
    // Opening the store recovers from the WAL what was committed, and only that.
    const std::string now = state(victim);
    const bool is_before = now == before, is_after = now == after;
    EXPECT_TRUE(is_before || is_after)
        << "killed after " << delay.count() << " us: the store is half-written";
    if (!k.by_signal)
      ++finished;
    else if (is_before)
      ++killed_before;
    else if (is_after)
      ++killed_after;
    return !k.by_signal || is_after;
  };
  for (int round = 0; round < iterations(); ++round) {
    std::chrono::microseconds last_before{0}, first_after{int64_t(timing.wall * 2e6)};
    for (auto delay : kill_moments(timing, 3, 4)) {
      if (attempt(delay))
        first_after = std::min(first_after, delay);
      else if (delay < first_after)
        last_before = std::max(last_before, delay);
    }
    // Then bisect towards the commit, where the WAL is being written: the kills that matter most.
    for (int step = 0; step < 7; ++step) {
      auto mid = (last_before + first_after) / 2;
      if (attempt(mid))
        first_after = mid;
      else
        last_before = mid;
    }
    // The process does not keep to a schedule on a loaded machine: until one kill has landed
    // while the WAL was written, keep trying at random moments around the commit.
    std::mt19937 rng(round);
    const auto margin = std::chrono::milliseconds(30);
    for (int extra = 0; extra < 30 && killed_with_wal == 0; ++extra) {
      const auto from = std::max(std::chrono::microseconds(0), last_before - margin);
      const auto span = (first_after + margin - from).count();
      attempt(from + std::chrono::microseconds(int64_t(rng() % uint64_t(std::max<int64_t>(span, 1)))));
    }
  }
  RecordProperty("killed_before_commit", killed_before);
  RecordProperty("killed_after_commit", killed_after);
  RecordProperty("finished", finished);
  RecordProperty("killed_with_wal_written", killed_with_wal);
  RecordProperty("timing", std::to_string(timing.wall) + " " + std::to_string(timing.read) + " " +
                               std::to_string(timing.merge));
  // The test must have interrupted adds, some of them while the WAL was being written, or it
  // proved nothing.
  EXPECT_GT(killed_before, 0);
  // Whether a timed kill lands while the WAL is being written depends on the machine's load;
  // KillAtExactRowsOfTheMerge below covers that moment deterministically.
  // A store that lived through a kill keeps working.
  CommandResult next = run_bookforge({"db", "add", sample("twic0920-2000.pgn").string(), "--db",
                                      victim.string(), "--progress", "never", "--force"});
  EXPECT_EQ(next.exit_code, 0) << next.err;
}

TEST_F(DbKill, AKilledAddOfANewStoreLeavesNoStoreOrAWholeOne) {
  const fs::path reference = dir_ / "reference.sqlite", victim = dir_ / "victim.sqlite";
  const Timing timing = timed_add(add_args(reference));
  const std::string whole = dump_tree(reference);
  int absent = 0;
  for (int round = 0; round < iterations(); ++round) {
    for (auto delay : kill_moments(timing, 2, 4)) {
      fs::remove(victim);
      run_and_kill(add_args(victim), delay);
      if (!fs::exists(victim)) {
        ++absent;
      } else {
        EXPECT_EQ(dump_tree(victim), whole) << "killed after " << delay.count() << " us";
      }
    }
  }
  EXPECT_GT(absent, 0);
  // The next add of the store removes what the killed ones left under temporary names.
  fs::remove(victim);
  ASSERT_EQ(run_bookforge(add_args(victim)).exit_code, 0);
  EXPECT_EQ(dump_tree(victim), whole);
  for (const auto& entry : fs::directory_iterator(dir_.path()))
    EXPECT_EQ(entry.path().filename().string().find(".victim.sqlite.tmp-"), std::string::npos)
        << entry.path();
}

// The add of add_args(db), run in a child process that kills itself (SIGKILL) as the merge
// reads row `row`, while SQLite is writing the transaction into the WAL: the hook is the
// store's own (StoreAddOptions::on_merge_row), injected here. The child's exit status.
int add_killed_at_row(const fs::path& input, const fs::path& db, long row) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    store::StoreAddOptions options;
    options.db_path = db.string();
    options.pipeline.inputs = {input.string()};
    options.pipeline.threads = 1;
    options.pipeline.max_ply = 60;  // db add's default, which made the base store
    options.tally.tmp_dir = db.parent_path().string();
    options.on_merge_row = [row](uint64_t read) {
      if (read == uint64_t(row)) ::raise(SIGKILL);
    };
    Result<store::StoreAddReport> added = store::store_add(options);
    if (!added) std::fprintf(stderr, "%s\n", added.error().message.c_str());
    ::_exit(added ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

// The deterministic counterpart of the timed kills: the add is killed as the merge reads its
// first row, a middle row and its last row. The store must still hold exactly the before-state.
TEST_F(DbKill, KillAtExactRowsOfTheMerge) {
  const fs::path base = dir_ / "base.sqlite", reference = dir_ / "reference.sqlite",
                 victim = dir_ / "victim.sqlite";
  ASSERT_NO_FATAL_FAILURE(make_base(base));
  const std::string before = state(base);
  fs::copy_file(base, reference);
  ASSERT_EQ(run_bookforge(add_args(reference)).exit_code, 0);
  ASSERT_NE(dump_tree(reference), dump_tree(base));
  // The merge reads one row per (key, move) of the new input; the rows the add created bound
  // that number from below, so every row chosen here is reached.
  const long merged_rows = std::stol(sql_rows(reference, "SELECT count(*) FROM tree")) -
                           std::stol(sql_rows(base, "SELECT count(*) FROM tree"));
  ASSERT_GT(merged_rows, 10);
  for (long row : {1L, merged_rows / 2, merged_rows - 1}) {
    fs::remove(victim);
    fs::remove(fs::path(victim.string() + "-wal"));
    fs::remove(fs::path(victim.string() + "-shm"));
    fs::copy_file(base, victim);
    EXPECT_EQ(add_killed_at_row(dir_ / "big.pgn", victim, row), 128 + SIGKILL) << "row " << row;
    const std::string now = state(victim);
    EXPECT_EQ(now, before) << "killed at merge row " << row << ": the store changed";
  }
  // After the kills the store accepts the same add and ends in the full after-state.
  ASSERT_EQ(run_bookforge(add_args(victim)).exit_code, 0);
  EXPECT_EQ(dump_tree(victim), dump_tree(reference));
}

}  // namespace
}  // namespace bookforge::test
