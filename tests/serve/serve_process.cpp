#include "serve/serve_process.h"

#include <fcntl.h>

#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

namespace bookforge::test {
namespace {

constexpr auto kStartTimeout = std::chrono::seconds(30);

}  // namespace

ServeProcess::ServeProcess(const std::vector<std::string>& args, const std::string& stderr_path) {
  int out[2];
  if (::pipe(out) != 0) {
    ADD_FAILURE() << "pipe failed";
    return;
  }
  std::vector<std::string> argv_text = {BOOKFORGE_BIN, "serve"};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  argv_text.insert(argv_text.end(), {"--port", "0"});
  std::vector<char*> argv;
  for (std::string& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_ = ::fork();
  if (pid_ == 0) {
    ::dup2(out[1], STDOUT_FILENO);
    if (!stderr_path.empty()) {
      const int err = ::open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (err >= 0) ::dup2(err, STDERR_FILENO);
    }
    ::close(out[0]);
    ::close(out[1]);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(out[1]);
  stdout_fd_ = out[0];
  std::string printed;
  const auto deadline = std::chrono::steady_clock::now() + kStartTimeout;
  while (printed.find('\n') == std::string::npos && std::chrono::steady_clock::now() < deadline) {
    pollfd ready{stdout_fd_, POLLIN, 0};
    if (::poll(&ready, 1, 100) <= 0) continue;
    char buffer[256];
    const ssize_t n = ::read(stdout_fd_, buffer, sizeof buffer);
    if (n <= 0) break;
    printed.append(buffer, size_t(n));
  }
  const size_t start = printed.find("http://");
  const size_t end = printed.find(' ', start);
  if (start == std::string::npos || end == std::string::npos) {
    ADD_FAILURE() << "bookforge serve printed no URL: \"" << printed << "\"";
    return;
  }
  url_ = printed.substr(start, end - start);
}

int ServeProcess::port() const {
  const size_t colon = url_.rfind(':');
  return colon == std::string::npos ? 0 : std::atoi(url_.c_str() + colon + 1);
}

int ServeProcess::interrupt(std::chrono::milliseconds wait) {
  if (pid_ <= 0) return -1;
  ::kill(pid_, SIGINT);
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (::waitpid(pid_, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

ServeProcess::~ServeProcess() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  if (stdout_fd_ >= 0) ::close(stdout_fd_);
}

}  // namespace bookforge::test
