#include "support/test_support.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
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

std::string colour_flipped(const std::string& fen) {
  std::istringstream in(fen);
  std::string placement, side, castling = "-", ep = "-";
  in >> placement >> side >> castling >> ep;
  std::vector<std::string> ranks;
  std::stringstream ps(placement);
  for (std::string rank; std::getline(ps, rank, '/');) ranks.push_back(rank);
  std::string flipped;
  for (auto it = ranks.rbegin(); it != ranks.rend(); ++it) {
    if (!flipped.empty()) flipped += '/';
    for (char c : *it)
      flipped += std::isalpha(static_cast<unsigned char>(c))
                     ? (std::isupper(c) ? char(std::tolower(c)) : char(std::toupper(c)))
                     : c;
  }
  std::string rights;
  for (char c : castling)
    rights += c == '-' ? c : (std::isupper(c) ? char(std::tolower(c)) : char(std::toupper(c)));
  // Polyglot/FEN order: white's rights first.
  std::string ordered;
  for (char c : std::string("KQkq"))
    if (rights.find(c) != std::string::npos) ordered += c;
  if (ordered.empty()) ordered.push_back('-');
  if (ep != "-") ep[1] = ep[1] == '3' ? '6' : '3';
  return flipped + (side == "w" ? " b " : " w ") + ordered + " " + ep + " 0 1";
}

const std::vector<std::string>& evaluation_positions() {
  static const std::vector<std::string> positions = {
      std::string(chess::kStartFen),
      "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
      "r2q1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 10",
      "2r3k1/pp3ppp/4p3/3pP3/3P4/P4N2/1P3PPP/6K1 b - - 0 25",
      "8/5pk1/6p1/3P4/8/6P1/5PK1/8 w - - 0 40",
      "8/8/4k3/8/2P5/8/8/4K3 b - - 0 50",
      "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
      "r3k2r/pb1n1ppp/1p2p3/q1pp4/2PP4/P1Q1PN2/1P1B1PPP/R3K2R b KQkq - 1 12",
      "6k1/5ppp/8/8/8/8/1q3PPP/3R2K1 w - - 0 30",
      "8/8/8/4k3/8/8/3BB3/4K3 w - - 0 60",
  };
  return positions;
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
