// cpp-httplib's server with the waiting room (serve/waiting_room.h) between its accept loop
// and its handlers. The library lends a thread to each connection from the accept on, and its
// read timeout counts per read: a client that trickles its request holds a thread for as long
// as it likes, and a few dozen such clients hold them all. Here the accept loop's task queue
// runs each accepted socket's task at once on the accept thread, and the task (the overridden
// process_and_close_socket) only admits the socket to the room. The room's workers serve a
// request once it has wholly arrived: they read exactly its bytes, serve it through the
// library's process_request on an ArrivedRequestStream, and give the connection back to the
// room to wait for the next one. So threads only ever serve requests that are all there.
#pragma once

#include <httplib.h>

#include <atomic>
#include <chrono>

#include "base/result.h"
#include "serve/waiting_room.h"

namespace bookforge::serve {

class RoomServer : public httplib::Server {
 public:
  RoomServer(size_t workers, const WaitingRoom::Limits& room_limits, std::chrono::seconds write_timeout);
  ~RoomServer() override;

  // Serves on `listen_socket` (serve/listen_socket.h; the server closes it) until
  // stop_serving(); an error if the listener fails.
  Status serve(int listen_socket);
  // Safe from any thread: ends the accept loop; responses being written give up.
  void stop_serving();

  // The connection of the request the calling thread is serving, -1 outside of one: a handler
  // can watch whether its client is still there (serve/arrived_request_stream.h).
  static int serving_socket();

 private:
  bool process_and_close_socket(socket_t socket) override;
  void serve_arrived(const WaitingRoom::Handoff& handoff);

  const size_t workers_;
  const WaitingRoom::Limits room_limits_;
  const std::chrono::seconds write_timeout_;
  std::atomic<bool> stopping_{false};
  WaitingRoom* room_ = nullptr;  // while serve() runs
};

}  // namespace bookforge::serve
