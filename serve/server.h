// The HTTP server: cpp-httplib's request parsing and routing (serve/room_server.h) in front of
// serve::Api and the embedded page. Routes:
//   /api/explorer  /explorer  /masters  /lichess   the explorer (lichess's paths too, /master)
//   /masters/pgn/ID  /master/pgn/ID                a game's PGN, as lichess's masters give it
//   /api/position  /api/books  /api/engine  /api/game  /api/info
//   anything else: an embedded file (serve/static_files.h), or a 404 JSON error.
// Every API answer allows any origin (Access-Control-Allow-Origin: *), as lichess's explorer
// does. Every error, the library's own (a malformed request line) and the waiting room's (a request
// too large or too slow) included, answers {"error": "..."}. Only GET and HEAD are served (any
// other method: 405, with Allow), only under the Host names of serve/allowed_hosts.h (else
// 421). Requests are bounded in size and in the time they take to arrive
// (serve/waiting_room.h); the engine in time (serve/engine_slot.h).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "base/result.h"
#include "serve/allowed_hosts.h"
#include "serve/api.h"
#include "serve/waiting_room.h"

namespace bookforge::serve {

class RoomServer;

struct ServerLimits {
  // Requests served at once. A worker only takes a request that has wholly arrived, so slow
  // clients do not hold workers; an engine search holds one for up to its movetime.
  size_t threads = 64;
  // How long a response may take to write (a client that reads slowly is dropped).
  std::chrono::seconds write_timeout{10};
  // Sizes, deadlines and connection caps (the body limit: GET requests need none).
  WaitingRoom::Limits room;
};

class Server {
 public:
  Server(Api& api, const ServerLimits& limits);
  ~Server();

  // Binds `host`:`port` (port 0: any free port). Answers the port bound; a busy port is an
  // error that says so (serve/listen_socket.h).
  Result<int> bind(const std::string& host, int port);
  // Serves until stop(); an error if the listener fails.
  Status run();
  // Safe from any thread: stops the engine searches and the listener; run() then returns.
  void stop();
  // Sees every answer the server could not give (a 5xx: a damaged store, say) as
  // "METHOD TARGET: status message", from the thread that answered. Before run().
  void on_failure(std::function<void(const std::string&)> log);

 private:
  void add_routes();

  Api& api_;
  std::unique_ptr<RoomServer> http_;
  int listen_socket_ = -1;
  std::optional<AllowedHosts> hosts_;  // set by bind()
};

}  // namespace bookforge::serve
