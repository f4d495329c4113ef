// A `bookforge serve` process for end-to-end tests: started on a free port (--port 0), its
// URL read from the line it prints, stopped with SIGINT as Ctrl-C would.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace bookforge::test {

class ServeProcess {
 public:
  // Runs `bookforge serve <args> --port 0` and waits for its URL (the calling test fails
  // if none comes). With `stderr_path`, what the server says on standard error goes there.
  explicit ServeProcess(const std::vector<std::string>& args, const std::string& stderr_path = "");
  ~ServeProcess();  // kills the server if the test did not stop it
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;

  // "http://127.0.0.1:<port>/"; empty if the server did not start.
  const std::string& url() const { return url_; }
  // The port of url(); 0 if the server did not start.
  int port() const;
  // Sends SIGINT and waits: the exit code, or 128 + the signal that ended it. A server still
  // running after `wait` is killed (128 + SIGKILL).
  int interrupt(std::chrono::milliseconds wait = std::chrono::seconds(60));

 private:
  pid_t pid_ = -1;
  int stdout_fd_ = -1;
  std::string url_;
};

}  // namespace bookforge::test
