// Where a connection waits until a whole request has arrived on it. The server's workers wait
// here together, on one epoll set: the worker that a connection's new bytes wake peeks at them
// (recv MSG_PEEK: nothing is consumed), under the room's lock for a few microseconds, and goes
// back to waiting unless the head and the body it announces are all there
// (serve/request_framing.h); then it serves the request itself and gives the connection back.
// So no thread ever waits for a request's bytes: clients that send slowly, or not at all, hold a
// file descriptor here and nothing else, while a request that has arrived costs one wake-up, as
// with a thread per connection. Bytes of a pipelined next request stay in the kernel's buffer.
//
// The room enforces (its own thread checks the deadlines ten times a second):
//   - a whole request within request_timeout of the accept (or, on a kept-alive connection,
//     of its first byte): else a 408;
//   - keep_alive_timeout of idleness between requests: else the connection is closed;
//   - at most max_connections open connections, and max_connections_per_address from one
//     client address: the newest beyond either is answered 503 and closed;
//   - the refusals of serve/request_framing.h (414, 431, 411, 400, 413).
// Every refusal is a JSON error (serve/api_response.h). After one, the room reads and drops what
// the client still sends for up to `linger` before closing, so that the client gets the answer
// rather than a connection reset.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "base/result.h"
#include "serve/request_framing.h"

namespace bookforge::serve {

class WaitingRoom {
 public:
  struct Limits {
    FramingLimits framing;
    std::chrono::milliseconds request_timeout{10'000};
    std::chrono::milliseconds keep_alive_timeout{5'000};
    std::chrono::milliseconds linger{1'000};
    size_t max_connections = 768;  // within the default limit of 1024 open files
    size_t max_connections_per_address = 512;
    size_t max_requests_per_connection = 1000;
  };

  // A request that has wholly arrived: its `bytes` are in the socket's buffer. With
  // `close_after`, the connection is not to carry another request (give_back(..., false)).
  struct Handoff {
    int socket = -1;
    size_t bytes = 0;
    bool close_after = false;
  };
  // Runs on one of the room's `workers` threads, which may serve the request there and then;
  // the connection is the callee's until it gives it back.
  using Serve = std::function<void(const Handoff&)>;

  static Result<std::unique_ptr<WaitingRoom>> open(const Limits& limits, size_t workers, Serve serve);
  ~WaitingRoom();
  WaitingRoom(const WaitingRoom&) = delete;
  WaitingRoom& operator=(const WaitingRoom&) = delete;

  // Both safe from any thread. The room owns the socket from then on (it alone closes it).
  void admit(int socket);
  // After the response to a Handoff: the connection waits for its next request, or is closed.
  void give_back(int socket, bool keep_open);

  // Returns once the workers have finished the requests they were serving, and closes every
  // connection in the room; sockets given back afterwards are closed at once.
  void stop();

 private:
  enum class Phase { kWaiting, kServed, kLingering };
  struct Connection {
    std::string address;
    Phase phase = Phase::kWaiting;
    std::chrono::steady_clock::time_point deadline;
    bool fresh = true;     // no request answered yet: the request deadline runs from the accept
    bool started = false;  // bytes of the next request have arrived
    size_t served = 0;
  };
  using Connections = std::unordered_map<int, Connection>;

  WaitingRoom(const Limits& limits, size_t workers, Serve serve, int epoll, int wake);
  void work();
  void sweep_until_stopped();
  // With the lock held, from here on:
  void welcome(int socket);
  std::optional<Handoff> on_event(int socket, uint32_t events);
  std::optional<Handoff> examine(Connections::iterator it, bool client_done);
  void refuse(Connections::iterator it, int status, const std::string& message);
  void linger(Connections::iterator it);
  void wait_for_next(Connections::iterator it);
  void close_connection(Connections::iterator it);
  void sweep(std::chrono::steady_clock::time_point now);

  const Limits limits_;
  const Serve serve_;
  const int epoll_;
  const int wake_;  // an eventfd, readable once the room stops: it wakes every worker
  std::vector<std::thread> workers_;
  std::thread sweeper_;
  std::condition_variable stopping_;  // wakes the sweeper

  std::mutex mutex_;  // guards what follows
  bool stopped_ = false;
  Connections connections_;
  std::unordered_map<std::string, size_t> per_address_;
  std::vector<char> peeked_;
};

}  // namespace bookforge::serve
