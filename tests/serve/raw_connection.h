// A TCP connection to a local port that sends exactly the bytes a test gives, when it gives
// them: a slow client, a pipelining one, a malformed one. No HTTP library takes part.
#pragma once

#include <chrono>
#include <string>

namespace bookforge::test {

class RawConnection {
 public:
  // Connects to 127.0.0.1:`port`; connected() says whether it worked.
  explicit RawConnection(int port);
  ~RawConnection();
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  bool connected() const { return fd_ >= 0; }
  // False once the server has closed the connection (or it broke).
  bool send(const std::string& bytes);
  // Everything the server sends until it closes the connection or `wait` passes.
  std::string read_until_closed(std::chrono::milliseconds wait);
  // Whether a read found the connection closed by the server.
  bool closed_by_server() const { return closed_by_server_; }
  // One response: its head and a body as long as its Content-Length; empty if none came
  // within `wait`.
  std::string read_response(std::chrono::milliseconds wait);
  // Closes the connection (the server sees the client leave).
  void close();

 private:
  // Appends what comes before `deadline`; false when nothing came (or the server closed).
  bool receive(std::chrono::steady_clock::time_point deadline, std::string& into);

  int fd_ = -1;
  bool closed_by_server_ = false;
  std::string pending_;  // bytes read past the last response
};

// The status code of a response's first line ("HTTP/1.1 408 ..." -> 408); 0 for none.
int status_of(const std::string& response);
// The body of a response (what follows its head).
std::string body_of(const std::string& response);

}  // namespace bookforge::test
