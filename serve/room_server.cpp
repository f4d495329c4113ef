#include "serve/room_server.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include "serve/arrived_request_stream.h"

namespace bookforge::serve {
namespace {

thread_local int serving = -1;

// The accept loop's task queue: an accepted socket's task runs at once, on the accept thread
// (it only admits the socket to the waiting room, which never blocks).
class RunOnAcceptThread : public httplib::TaskQueue {
 public:
  void enqueue(std::function<void()> task) override { task(); }
  void shutdown() override {}
};

}  // namespace

RoomServer::RoomServer(size_t workers, const WaitingRoom::Limits& room_limits,
                       std::chrono::seconds write_timeout)
    : workers_(workers), room_limits_(room_limits), write_timeout_(write_timeout) {
  new_task_queue = [] { return new RunOnAcceptThread; };
  set_keep_alive_timeout(
      std::chrono::duration_cast<std::chrono::seconds>(room_limits.keep_alive_timeout).count());
  set_keep_alive_max_count(room_limits.max_requests_per_connection);
}

RoomServer::~RoomServer() {
  const socket_t listening = svr_sock_.exchange(INVALID_SOCKET);
  if (listening != INVALID_SOCKET) ::close(listening);
}

int RoomServer::serving_socket() { return serving; }

Status RoomServer::serve(int listen_socket) {
  svr_sock_ = listen_socket;
  Result<std::unique_ptr<WaitingRoom>> room = WaitingRoom::open(
      room_limits_, workers_, [this](const WaitingRoom::Handoff& handoff) { serve_arrived(handoff); });
  if (!room) return room.error();
  room_ = room->get();
  bool listened = true;
  if (stopping_.load()) {  // a stop that came before the loop started would find no loop to end
    ::close(svr_sock_.exchange(INVALID_SOCKET));
  } else {
    listened = listen_after_bind();
    svr_sock_ = INVALID_SOCKET;  // the loop closed it, whichever way it ended
  }
  (*room)->stop();  // the requests being served are answered (or given up, when stopping)
  room_ = nullptr;
  if (!listened && !stopping_.load()) return Error{"the listener stopped with an error"};
  return ok_status();
}

void RoomServer::stop_serving() {
  stopping_.store(true);
  stop();
}

bool RoomServer::process_and_close_socket(socket_t socket) {
  const int yes = 1;
  ::setsockopt(socket, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  room_->admit(socket);
  return true;
}

void RoomServer::serve_arrived(const WaitingRoom::Handoff& handoff) {
  std::string request;
  if (!read_arrived_bytes(handoff.socket, handoff.bytes, request)) {
    room_->give_back(handoff.socket, false);
    return;
  }
  ArrivedRequestStream stream(handoff.socket, std::move(request),
                              std::chrono::steady_clock::now() + write_timeout_, stopping_);
  bool client_closes = false;
  serving = handoff.socket;
  const bool answered = process_request(stream, handoff.close_after, client_closes, nullptr);
  serving = -1;
  room_->give_back(handoff.socket, answered && !handoff.close_after && !client_closes && !stopping_.load());
}

}  // namespace bookforge::serve
