#include "support/test_support.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

namespace bookforge::test {

std::filesystem::path source_dir() { return BOOKFORGE_SOURCE_DIR; }

std::filesystem::path shared_data() {
  std::filesystem::path p = BOOKFORGE_SHARED_DATA;
  if (!std::filesystem::is_directory(p)) return {};
  return std::filesystem::canonical(p);
}

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "tmp";
  for (char& c : name)
    if (c == '/') c = '_';
  path_ = std::filesystem::path(BOOKFORGE_TEST_TMP) /
          (name + "." + std::to_string(::getpid()) + "." + std::to_string(counter++));
  std::filesystem::remove_all(path_);
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

namespace {

std::string drain(int fd) {
  std::string text;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return text;
}

}  // namespace

CommandResult run_program(const std::vector<std::string>& argv, const std::string& stdin_data) {
  ::signal(SIGPIPE, SIG_IGN);  // a child that ignores its input must not kill the test
  int in_pipe[2], out_pipe[2], err_pipe[2];
  if (::pipe(in_pipe) || ::pipe(out_pipe) || ::pipe(err_pipe)) return {};
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(in_pipe[0], 0);
    ::dup2(out_pipe[1], 1);
    ::dup2(err_pipe[1], 2);
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) ::close(fd);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
    ::_exit(127);
  }
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  std::thread writer([&] {
    size_t done = 0;
    while (done < stdin_data.size()) {
      ssize_t n = ::write(in_pipe[1], stdin_data.data() + done, stdin_data.size() - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    ::close(in_pipe[1]);
  });
  CommandResult result;
  std::thread err_reader([&] { result.err = drain(err_pipe[0]); });
  result.out = drain(out_pipe[0]);
  err_reader.join();
  writer.join();
  int status = 0;
  ::waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

CommandResult run_bookforge(const std::vector<std::string>& args, const std::string& stdin_data) {
  std::vector<std::string> argv{BOOKFORGE_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_program(argv, stdin_data);
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

chess::Board board_of(const std::string& fen) {
  Result<chess::Board> b = chess::Board::from_fen(fen);
  EXPECT_TRUE(b.ok()) << fen << ": " << (b.ok() ? "" : b.error().message);
  return b.ok() ? *b : chess::Board();
}

std::vector<unsigned char> polyglot_bytes(std::vector<book::PolyglotEntry> entries) {
  std::sort(entries.begin(), entries.end(), book::book_order);
  std::vector<unsigned char> bytes(entries.size() * book::kPolyglotEntrySize);
  for (size_t i = 0; i < entries.size(); ++i)
    book::encode_entry(entries[i], &bytes[i * book::kPolyglotEntrySize]);
  return bytes;
}

std::string unpacked_sample(const TempDir& dir, const std::string& packed) {
  const std::filesystem::path path = source_dir() / "data-samples" / packed;
  if (!std::filesystem::exists(path) || !std::filesystem::exists("/usr/bin/xz")) return "";
  CommandResult xz = run_program({"/usr/bin/xz", "-dc", path.string()});
  if (xz.exit_code != 0) return "";
  const std::filesystem::path out = dir / path.stem();
  write_file(out, xz.out);
  return out.string();
}

}  // namespace bookforge::test
