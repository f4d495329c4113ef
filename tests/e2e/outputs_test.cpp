// Outputs and interruptions, run through the real binary: an output that is one of the inputs,
// or not a regular file, is refused before anything is read; every output path is checked
// before the run starts; a symlink is written through; a run stopped by SIGINT or SIGTERM, or
// by a full disk, leaves the folders as they were.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <set>
#include <thread>

#include "e2e/db_helpers.h"

extern char** environ;

namespace bookforge::test {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Every name in `dir`, hidden ones included.
std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.insert(entry.path().filename().string());
  return names;
}

std::string text(const std::set<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += n + " ";
  return out;
}

// A bookforge run that the test feeds through a pipe and signals when it chooses.
class Child {
 public:
  explicit Child(const std::vector<std::string>& args) {
    std::vector<std::string> argv{BOOKFORGE_BIN};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> raw;
    for (auto& a : argv) raw.push_back(a.data());
    raw.push_back(nullptr);
    int pipe_fds[2];
    EXPECT_EQ(::pipe2(pipe_fds, O_CLOEXEC), 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[0], 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    EXPECT_EQ(posix_spawn(&pid_, raw[0], &actions, nullptr, raw.data(), environ), 0);
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipe_fds[0]);
    stdin_ = pipe_fds[1];
  }
  ~Child() {
    if (stdin_ >= 0) ::close(stdin_);
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }

  // Returns once the child has taken all but a pipe's worth of `data`.
  void feed(const std::string& data) {
    for (size_t done = 0; done < data.size();) {
      ssize_t n = ::write(stdin_, data.data() + done, data.size() - done);
      if (n < 0 && errno == EINTR) continue;
      ASSERT_GT(n, 0) << "the child stopped reading: " << std::strerror(errno);
      done += size_t(n);
    }
  }
  void close_stdin() {
    ::close(stdin_);
    stdin_ = -1;
  }
  void signal(int sig) { ::kill(pid_, sig); }

  // The exit code, 128 + the signal for a child that a signal ended (as a shell reports it).
  int wait() {
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

 private:
  pid_t pid_ = -1;
  int stdin_ = -1;
};

// A tmpfs mounted on a folder for the test's lifetime.
class TmpfsMount {
 public:
  TmpfsMount(const fs::path& dir, const std::string& options) : dir_(dir) {
    fs::create_directories(dir);
    mounted_ = ::mount("tmpfs", dir.c_str(), "tmpfs", 0, options.c_str()) == 0;
    if (!mounted_) error_ = std::strerror(errno);
  }
  ~TmpfsMount() {
    if (mounted_) ::umount2(dir_.c_str(), MNT_DETACH);
  }
  bool mounted() const { return mounted_; }
  const std::string& error() const { return error_; }

 private:
  fs::path dir_;
  bool mounted_ = false;
  std::string error_;
};

#define MOUNT_TMPFS_OR_SKIP(var, dir, options) \
  TmpfsMount var(dir, options);                \
  if (!var.mounted()) GTEST_SKIP() << "cannot mount a tmpfs on " << (dir) << ": " << var.error()

class Outputs : public ::testing::Test {
 protected:
  void SetUp() override {
    ::signal(SIGPIPE, SIG_IGN);  // a fed child that dies must not take the test with it
    fs::copy_file(sample("lichess-2016-05-1000.pgn"), pgn_);
  }

  CommandResult build(std::vector<std::string> args) {
    args.insert(args.begin(), "build");
    args.insert(args.end(), {"--progress", "never", "-q"});
    return run_bookforge(args);
  }

  // Twice the two samples: long enough a read to signal it at several moments.
  std::string big_pgn() const {
    std::string big;
    for (int i = 0; i < 2; ++i)
      big += read_file(sample("twic0920-2000.pgn")) + "\n" + read_file(sample("lichess-2016-05-1000.pgn")) +
             "\n";
    return big;
  }

  TempDir dir_;
  const fs::path pgn_ = dir_ / "games.pgn";
};

// ---------------------------------------------------------------------------------------------
// An output that is one of the inputs

TEST_F(Outputs, BuildRefusesToWriteOverItsInputHoweverItIsNamed) {
  const std::string original = read_file(pgn_);
  fs::create_directory(dir_ / "sub");
  fs::create_hard_link(pgn_, dir_ / "hard.pgn");
  fs::create_symlink(pgn_, dir_ / "soft.pgn");
  const std::vector<std::string> spellings{pgn_.string(), (dir_ / "sub" / ".." / "games.pgn").string(),
                                           (dir_ / "hard.pgn").string(), (dir_ / "soft.pgn").string()};
  for (const std::string& output : spellings) {
    CommandResult r = build({pgn_.string(), "-o", output});
    EXPECT_EQ(r.exit_code, 2) << output << ": " << r.err;
    EXPECT_NE(r.err.find(output), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("input"), std::string::npos) << r.err;
    EXPECT_EQ(read_file(pgn_), original) << "-o " << output << " replaced the input";
  }
  EXPECT_EQ(names_in(dir_.path()), (std::set<std::string>{"games.pgn", "hard.pgn", "soft.pgn", "sub"}));
}

TEST_F(Outputs, BuildRefusesToWriteOverACompressedInput) {
  const fs::path zst = dir_ / "games.pgn.zst";
  ASSERT_EQ(run_program({"zstd", "-q", pgn_.string(), "-o", zst.string()}).exit_code, 0);
  const std::string original = read_file(zst);
  CommandResult r = build({zst.string(), "-o", zst.string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(read_file(zst), original);
}

TEST_F(Outputs, BuildFromAStoreRefusesToReplaceTheStore) {
  const fs::path db = dir_ / "tree.sqlite";
  ASSERT_EQ(
      run_bookforge({"db", "add", pgn_.string(), "--db", db.string(), "-q", "--progress", "never"}).exit_code,
      0);
  const std::string before = dump_tree(db);
  CommandResult r = build({"--from-db", db.string(), "-o", db.string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("is the input"), std::string::npos) << r.err;
  EXPECT_EQ(dump_tree(db), before);
}

TEST_F(Outputs, MergeRefusesToWriteOverOneOfItsBooks) {
  const fs::path a = dir_ / "a.bin", b = dir_ / "b.bin";
  ASSERT_EQ(build({pgn_.string(), "-o", a.string()}).exit_code, 0);
  ASSERT_EQ(build({sample("twic0920-2000.pgn").string(), "-o", b.string()}).exit_code, 0);
  const std::string original = read_file(b);
  CommandResult r = run_bookforge({"merge", a.string(), b.string(), "-o", b.string(), "-q"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("is the input"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(b), original);
}

TEST_F(Outputs, DbAddRefusesAStoreThatIsOneOfItsInputs) {
  const std::string original = read_file(pgn_);
  CommandResult r = run_bookforge({"db", "add", pgn_.string(), "--db", pgn_.string(), "--progress", "never"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--db " + pgn_.string() + " is the input"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(pgn_), original);
}

// ---------------------------------------------------------------------------------------------
// Outputs that cannot be written, found before anything is read

// A PGN file that --strict refuses as soon as it is read: a run that reads it before looking at
// its outputs reports the bad game instead of the output.
fs::path write_bad_pgn(const fs::path& dir) {
  const fs::path bad = dir / "bad.pgn";
  write_file(bad, "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n");
  return bad;
}

TEST_F(Outputs, AFolderAsOutputFailsBeforeReading) {
  const fs::path bad = write_bad_pgn(dir_.path());
  fs::create_directory(dir_ / "books");
  for (const std::string& output : {(dir_ / "books").string(), (dir_ / "books").string() + "/"}) {
    CommandResult r = build({bad.string(), "--strict", "-o", output});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("-o " + output), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("directory"), std::string::npos) << r.err;
  }
  EXPECT_TRUE(fs::is_empty(dir_ / "books"));
  EXPECT_EQ(names_in(dir_.path()), (std::set<std::string>{"bad.pgn", "books", "games.pgn"}));
}

TEST_F(Outputs, AMissingOrReadOnlyFolderFailsBeforeReading) {
  const fs::path bad = write_bad_pgn(dir_.path());
  CommandResult r = build({bad.string(), "--strict", "-o", (dir_ / "nowhere" / "b.bin").string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("no such folder"), std::string::npos) << r.err;

  MOUNT_TMPFS_OR_SKIP(read_only, dir_ / "ro", "ro,size=64k");
  r = build({bad.string(), "--strict", "-o", (dir_ / "ro" / "b.bin").string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("cannot write in " + (dir_ / "ro").string()), std::string::npos) << r.err;
}

TEST_F(Outputs, AFifoOrADeviceIsRefusedAndLeftAsItWas) {
  const fs::path bad = write_bad_pgn(dir_.path());
  const fs::path fifo = dir_ / "fifo.bin", device = dir_ / "null.bin";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  CommandResult r = build({bad.string(), "--strict", "-o", fifo.string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(fifo.string() + " is a FIFO"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_fifo(fifo));

  // A copy of /dev/null (as root, renaming over the real one would delete it).
  if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0)
    GTEST_SKIP() << "cannot make a device node: " << std::strerror(errno);
  r = build({pgn_.string(), "-o", device.string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("is a character device"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_character_file(device));
}

TEST_F(Outputs, ASymlinkIsWrittenThroughToItsTarget) {
  const fs::path direct = dir_ / "direct.bin";
  ASSERT_EQ(build({pgn_.string(), "-o", direct.string()}).exit_code, 0);
  fs::create_directory(dir_ / "elsewhere");
  const fs::path target = dir_ / "elsewhere" / "target.bin", link = dir_ / "link.bin";
  write_file(target, "old");
  fs::create_symlink(target, link);
  CommandResult r = build({pgn_.string(), "-o", link.string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read_file(target), read_file(direct));
  EXPECT_EQ(names_in(dir_ / "elsewhere"), std::set<std::string>{"target.bin"});
}

TEST_F(Outputs, AnUnwritableReportOrSuspiciousFileFailsBeforeTheBookIsReplaced) {
  const fs::path book = dir_ / "book.bin";
  write_file(book, "old");
  fs::create_directory(dir_ / "folder");
  const std::vector<std::vector<std::string>> cases{
      {"--report", (dir_ / "nowhere" / "r.json").string()},
      {"--report", (dir_ / "folder").string()},
      {"--report", book.string()},
      {"--suspicious", (dir_ / "nowhere" / "s.csv").string(), "--rescore-depth", "1"},
      {"--tmp-dir", (dir_ / "nowhere").string()},
  };
  for (const auto& extra : cases) {
    std::vector<std::string> args{pgn_.string(), "-o", book.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    CommandResult r = build(args);
    EXPECT_EQ(r.exit_code, 2) << extra[0] << " " << extra[1] << ": " << r.err;
    EXPECT_NE(r.err.find(extra[0] + " " + extra[1]), std::string::npos) << r.err;
    EXPECT_EQ(read_file(book), "old") << extra[0] << " " << extra[1];
  }
  EXPECT_EQ(names_in(dir_.path()), (std::set<std::string>{"book.bin", "folder", "games.pgn"}));
}

TEST_F(Outputs, TheReportIsWrittenThroughTheSameOutputFile) {
  const fs::path book = dir_ / "book.bin", report = dir_ / "report.json";
  CommandResult r = build({pgn_.string(), "-o", book.string(), "--report", report.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(read_file(report).find("\"entries\""), std::string::npos);
  EXPECT_EQ(names_in(dir_.path()), (std::set<std::string>{"book.bin", "games.pgn", "report.json"}));
}

// ---------------------------------------------------------------------------------------------
// A full disk

TEST_F(Outputs, AFullOutputFolderGivesAClearErrorAndLeavesNothing) {
  const fs::path big = dir_ / "big.pgn", small = dir_ / "small";
  write_file(big, big_pgn());
  MOUNT_TMPFS_OR_SKIP(full, small, "size=64k");
  write_file(small / "book.bin", "old");
  // The polyglot rules keep a book of several hundred KiB from these games, every copy counted.
  CommandResult r = build({big.string(), "-o", (small / "book.bin").string(), "--rules", "polyglot",
                           "--keep-duplicates", "--tmp-dir", dir_.path().string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("cannot write " + (small / "book.bin").string() + ": No space left on device"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(names_in(small), std::set<std::string>{"book.bin"});
  EXPECT_EQ(read_file(small / "book.bin"), "old");
}

TEST_F(Outputs, AFullTmpDirGivesAClearErrorAndLeavesNothing) {
  const fs::path big = dir_ / "big.pgn", spills = dir_ / "spills";
  write_file(big, big_pgn());
  MOUNT_TMPFS_OR_SKIP(full, spills, "size=64k");
  CommandResult r = build({big.string(), "-o", (dir_ / "book.bin").string(), "--memory", "64K", "--threads",
                           "1", "--tmp-dir", spills.string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("temporary file in " + spills.string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_empty(spills));
  EXPECT_EQ(names_in(dir_.path()), (std::set<std::string>{"big.pgn", "games.pgn", "spills"}));
}

// ---------------------------------------------------------------------------------------------
// Interruptions

// A build reading standard input, signalled once it has read about a megabyte (so it is in the
// middle of its read, its book begun and its tables spilled), leaves the output folder and the
// spill folder as they were, keeps the old book, and dies of the signal.
TEST_F(Outputs, ABuildSignalledInTheMiddleOfItsReadLeavesNothing) {
  const std::string big = big_pgn();
  fs::create_directory(dir_ / "out");
  fs::create_directory(dir_ / "spills");
  write_file(dir_ / "out" / "book.bin", "old");
  for (int sig : {SIGINT, SIGTERM}) {
    Child child({"build", "-", "-o", (dir_ / "out" / "book.bin").string(), "--memory", "64K", "--threads",
                 "1", "--tmp-dir", (dir_ / "spills").string(), "--progress", "never"});
    child.feed(big.substr(0, 1 << 20));
    child.signal(sig);
    EXPECT_EQ(child.wait(), 128 + sig);
    EXPECT_EQ(names_in(dir_ / "out"), std::set<std::string>{"book.bin"}) << text(names_in(dir_ / "out"));
    EXPECT_EQ(read_file(dir_ / "out" / "book.bin"), "old");
    EXPECT_TRUE(fs::is_empty(dir_ / "spills"));
  }
}

// Runs `args` uninterrupted to time it, then again signalled at moments spread over that time
// (the first at once, the last near the end, where the output is written). `prepare` is called
// before each run, `check` after each with whether the run finished.
template <class Prepare, class Check>
void signal_at_many_moments(const std::vector<std::string>& args, Prepare prepare, Check check) {
  prepare();
  const auto start = Clock::now();
  {
    Child whole(args);
    whole.close_stdin();
    ASSERT_EQ(whole.wait(), 0);
  }
  const auto wall = Clock::now() - start;
  int signalled = 0;
  for (double at : {0.0, 0.05, 0.2, 0.4, 0.6, 0.8, 0.9, 0.95, 0.98, 1.0}) {
    const int sig = signalled % 2 ? SIGINT : SIGTERM;
    prepare();
    Child child(args);
    child.close_stdin();
    std::this_thread::sleep_for(std::chrono::duration_cast<Clock::duration>(wall * at));
    child.signal(sig);
    const int code = child.wait();
    EXPECT_TRUE(code == 0 || code == 128 + sig) << "exit " << code << " at " << at;
    signalled += code != 0;
    check(code == 0, at);
  }
  // The moments must have interrupted runs, or they proved nothing.
  EXPECT_GT(signalled, 0);
}

TEST_F(Outputs, ABuildSignalledAtManyMomentsKeepsTheOldBookOrWritesTheWholeNewOne) {
  fs::create_directory(dir_ / "out");
  write_file(dir_ / "big.pgn", big_pgn());
  const fs::path book = dir_ / "out" / "book.bin", whole = dir_ / "whole.bin";
  std::vector<std::string> args{"build",      (dir_ / "big.pgn").string(),
                                "-o",         whole.string(),
                                "--threads",  "1",
                                "--memory",   "256K",
                                "--rules",    "polyglot",
                                "--progress", "never"};
  ASSERT_EQ(run_bookforge(args).exit_code, 0);
  const std::string new_book = read_file(whole);
  args[3] = book.string();
  signal_at_many_moments(
      args, [&] { write_file(book, "old"); },
      [&](bool finished, double at) {
        const std::string now = read_file(book);
        EXPECT_TRUE(now == new_book || (!finished && now == "old")) << "at " << at;
        EXPECT_EQ(names_in(dir_ / "out"), std::set<std::string>{"book.bin"}) << "at " << at;
      });
}

TEST_F(Outputs, AMergeSignalledAtManyMomentsLeavesNothingOrTheWholeBook) {
  write_file(dir_ / "big.pgn", big_pgn());
  const fs::path a = dir_ / "a.bin", b = dir_ / "b.bin", whole = dir_ / "whole.bin";
  ASSERT_EQ(build({(dir_ / "big.pgn").string(), "-o", a.string(), "--rules", "polyglot"}).exit_code, 0);
  ASSERT_EQ(build({(dir_ / "big.pgn").string(), "-o", b.string(), "--min-move-games", "1"}).exit_code, 0);
  ASSERT_EQ(run_bookforge({"merge", a.string(), b.string(), "-o", whole.string(), "-q"}).exit_code, 0);
  const std::string merged_book = read_file(whole);
  fs::create_directory(dir_ / "out");
  const fs::path merged = dir_ / "out" / "merged.bin";
  signal_at_many_moments(
      {"merge", a.string(), b.string(), "-o", merged.string(), "-q"}, [&] { fs::remove(merged); },
      [&](bool finished, double at) {
        // A signal that comes after the rename finds the book complete.
        const std::set<std::string> names = names_in(dir_ / "out");
        if (finished || !names.empty()) {
          EXPECT_EQ(names, std::set<std::string>{"merged.bin"}) << "at " << at << ": " << text(names);
          EXPECT_TRUE(read_file(merged) == merged_book) << "at " << at;
        }
      });
}

// `db add` leans on SQLite: a signal ends it like a kill, and the store is the one before the
// add or the one after it, with no temporary file beside it.
TEST_F(Outputs, ADbAddSignalledAtManyMomentsLeavesTheStoreBeforeOrAfter) {
  fs::create_directory(dir_ / "out");
  write_file(dir_ / "big.pgn", big_pgn());
  const fs::path db = dir_ / "out" / "tree.sqlite", base = dir_ / "base.sqlite",
                 whole = dir_ / "whole.sqlite";
  ASSERT_EQ(run_bookforge({"db", "add", pgn_.string(), "--db", base.string(), "-q", "--progress", "never"})
                .exit_code,
            0);
  fs::copy_file(base, whole);
  const std::vector<std::string> add{
      "db",         "add",  (dir_ / "big.pgn").string(), "--db", whole.string(), "--threads", "1", "-q",
      "--progress", "never"};
  ASSERT_EQ(run_bookforge(add).exit_code, 0);
  const std::string before = dump_tree(base), after = dump_tree(whole);
  std::vector<std::string> args = add;
  args[4] = db.string();
  signal_at_many_moments(
      args,
      [&] {
        for (const char* side : {"", "-wal", "-shm"}) fs::remove(db.string() + side);
        fs::copy_file(base, db);
      },
      [&](bool finished, double at) {
        for (const std::string& name : names_in(dir_ / "out"))
          EXPECT_EQ(name.find(".tmp-"), std::string::npos) << "at " << at << ": " << name;
        const std::string now = dump_tree(db);
        EXPECT_TRUE(now == after || (!finished && now == before)) << "at " << at;
      });
}

TEST_F(Outputs, AFirstDbAddSignalledAtManyMomentsLeavesNoStoreOrTheWholeOne) {
  fs::create_directory(dir_ / "out");
  write_file(dir_ / "big.pgn", big_pgn());
  const fs::path db = dir_ / "out" / "tree.sqlite", whole = dir_ / "whole.sqlite";
  std::vector<std::string> add{
      "db",         "add",  (dir_ / "big.pgn").string(), "--db", whole.string(), "--threads", "1", "-q",
      "--progress", "never"};
  ASSERT_EQ(run_bookforge(add).exit_code, 0);
  const std::string complete = dump_tree(whole);
  add[4] = db.string();
  signal_at_many_moments(
      add,
      [&] {
        fs::remove_all(dir_ / "out");
        fs::create_directory(dir_ / "out");
      },
      [&](bool finished, double at) {
        // No half-made store under a temporary name, and the store itself only when complete.
        for (const std::string& name : names_in(dir_ / "out"))
          EXPECT_EQ(name.find(".tmp-"), std::string::npos) << "at " << at << ": " << name;
        if (finished || fs::exists(db)) {
          EXPECT_EQ(dump_tree(db), complete) << "at " << at;
        }
      });
}

}  // namespace
}  // namespace bookforge::test
