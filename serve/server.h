// The HTTP server: cpp-httplib's listener and thread pool in front of serve::Api and the
// embedded page. Routes:
//   /api/explorer  /explorer  /masters  /lichess   the explorer (lichess's paths too)
//   /api/position  /api/books  /api/engine  /api/game  /api/info
//   anything else: an embedded file (serve/static_files.h), or a 404 JSON error.
// Every error, the library's own (a malformed request line, a request too large) included,
// answers {"error": "..."}. Requests are bounded in size; the engine in time (serve/engine_slot.h).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "base/result.h"
#include "serve/api.h"

namespace httplib {
class Server;
}

namespace bookforge::serve {

struct ServerLimits {
  // Threads that serve connections; a connection holds its thread while kept alive, so this
  // is also how many clients are served at once (others wait for a free thread).
  size_t threads = 64;
  size_t max_body_bytes = 16 * 1024;  // GET requests need none; anything larger is refused
  int read_timeout_s = 5;             // a client that stops sending is dropped
  int keep_alive_timeout_s = 2;       // an idle kept-alive connection frees its thread
};

class Server {
 public:
  Server(Api& api, const ServerLimits& limits);
  ~Server();

  // Binds `host`:`port` (port 0: any free port). Answers the port bound.
  Result<int> bind(const std::string& host, int port);
  // Serves until stop(); an error if the listener fails.
  Status run();
  // Safe from any thread: stops the engine searches and the listener; run() then returns.
  void stop();

 private:
  void add_routes();

  Api& api_;
  ServerLimits limits_;
  std::unique_ptr<httplib::Server> http_;
  int listen_socket_ = -1;
};

}  // namespace bookforge::serve
