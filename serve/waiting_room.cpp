#include "serve/waiting_room.h"

#include <arpa/inet.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "serve/api_response.h"

namespace bookforge::serve {
namespace {

using Clock = std::chrono::steady_clock;

// Deadlines are checked this often: they are whole seconds, so a tenth more does not matter.
constexpr std::chrono::milliseconds kSweepInterval{100};
// What a lingering connection may still send is read and dropped in pieces of this size.
constexpr size_t kDrainPiece = 64 * 1024;

std::string_view reason_phrase(int status) {
  switch (status) {
    case 400:
      return "Bad Request";
    case 408:
      return "Request Timeout";
    case 411:
      return "Length Required";
    case 413:
      return "Payload Too Large";
    case 414:
      return "URI Too Long";
    case 431:
      return "Request Header Fields Too Large";
    default:
      return "Service Unavailable";
  }
}

// A complete response that ends the connection, written by the room itself: the request never
// reaches the HTTP library, so the library's error handler cannot make it.
std::string refusal_text(int status, const std::string& message) {
  const ApiResponse error = error_response(status, message);
  return "HTTP/1.1 " + std::to_string(status) + " " + std::string(reason_phrase(status)) +
         "\r\nContent-Type: " + error.content_type +
         "\r\nContent-Length: " + std::to_string(error.body.size()) + "\r\nConnection: close\r\n\r\n" +
         error.body;
}

// Best effort: a refusal is small, and a fresh connection's send buffer is empty.
void send_refusal(int socket, int status, const std::string& message) {
  const std::string text = refusal_text(status, message);
  [[maybe_unused]] ssize_t sent = ::send(socket, text.data(), text.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
}

std::string peer_address(int socket) {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  if (::getpeername(socket, reinterpret_cast<sockaddr*>(&address), &length) != 0) return {};
  char text[INET6_ADDRSTRLEN] = "";
  if (address.ss_family == AF_INET)
    ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(address).sin_addr, text, sizeof text);
  else if (address.ss_family == AF_INET6)
    ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6&>(address).sin6_addr, text, sizeof text);
  return text;
}

// Edge-triggered: the room hears of a connection again only when new bytes come, so a request
// that has partly arrived is not looked at over and over while the rest is on its way. A
// connection stays watched while a worker serves it (its events are ignored then); when it
// comes back, `operation` EPOLL_CTL_MOD reports at once what came meanwhile.
bool watch(int epoll, int socket, int operation) {
  epoll_event event{};
  event.events = EPOLLIN | EPOLLRDHUP | EPOLLET;
  event.data.fd = socket;
  return ::epoll_ctl(epoll, operation, socket, &event) == 0;
}

// Whether `bytes` have arrived, `peeked` of them known to be there.
bool arrived(int socket, size_t peeked, size_t bytes) {
  int queued = 0;
  return peeked >= bytes || (::ioctl(socket, FIONREAD, &queued) == 0 && size_t(queued) >= bytes);
}

// Reads and drops what has arrived; true once the client has closed (or the connection broke).
bool drain(int socket) {
  static thread_local std::vector<char> dropped(kDrainPiece);
  for (;;) {
    const ssize_t n = ::recv(socket, dropped.data(), dropped.size(), MSG_DONTWAIT);
    if (n > 0) continue;
    return n == 0 || (errno != EAGAIN && errno != EINTR);
  }
}

}  // namespace

Result<std::unique_ptr<WaitingRoom>> WaitingRoom::open(const Limits& limits, size_t workers, Serve serve) {
  const int epoll = ::epoll_create1(EPOLL_CLOEXEC);
  if (epoll < 0) return Error{std::string("cannot wait for connections: epoll: ") + std::strerror(errno)};
  const int wake = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  // Level-triggered and never read: once written, every worker that waits sees it.
  epoll_event event{};
  event.events = EPOLLIN;
  event.data.fd = wake;
  if (wake < 0 || ::epoll_ctl(epoll, EPOLL_CTL_ADD, wake, &event) != 0) {
    const std::string why = std::strerror(errno);
    if (wake >= 0) ::close(wake);
    ::close(epoll);
    return Error{"cannot wait for connections: eventfd: " + why};
  }
  return std::unique_ptr<WaitingRoom>(new WaitingRoom(limits, workers, std::move(serve), epoll, wake));
}

WaitingRoom::WaitingRoom(const Limits& limits, size_t workers, Serve serve, int epoll, int wake)
    : limits_(limits),
      serve_(std::move(serve)),
      epoll_(epoll),
      wake_(wake),
      peeked_(limits.framing.max_head_bytes) {
  for (size_t i = 0; i < std::max<size_t>(workers, 1); ++i) workers_.emplace_back([this] { work(); });
  sweeper_ = std::thread([this] { sweep_until_stopped(); });
}

WaitingRoom::~WaitingRoom() {
  stop();
  ::close(wake_);
  ::close(epoll_);
}

void WaitingRoom::admit(int socket) {
  std::lock_guard lock(mutex_);
  if (!stopped_) return welcome(socket);
  ::close(socket);
}

void WaitingRoom::give_back(int socket, bool keep_open) {
  std::lock_guard lock(mutex_);
  auto it = connections_.find(socket);
  if (it == connections_.end()) {
    ::close(socket);  // not the room's: cannot happen, but the socket must not leak
  } else if (stopped_) {
    ::shutdown(socket, SHUT_RDWR);
    close_connection(it);
  } else if (keep_open) {
    wait_for_next(it);
  } else {
    linger(it);
  }
}

void WaitingRoom::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopped_) return;
    stopped_ = true;
  }
  stopping_.notify_all();
  const uint64_t one = 1;
  [[maybe_unused]] ssize_t written = ::write(wake_, &one, sizeof one);
  for (std::thread& worker : workers_) worker.join();
  sweeper_.join();
  std::lock_guard lock(mutex_);
  for (auto it = connections_.begin(); it != connections_.end();) {
    // A served connection is its server's until given back (then closed by give_back()).
    if (it->second.phase == Phase::kServed) {
      ++it;
      continue;
    }
    ::shutdown(it->first, SHUT_RDWR);
    ::close(it->first);
    it = connections_.erase(it);
  }
}

// A worker: waits for bytes on any connection, and serves the requests that have all arrived.
void WaitingRoom::work() {
  for (;;) {
    epoll_event event{};
    const int n = ::epoll_wait(epoll_, &event, 1, -1);
    std::optional<Handoff> request;
    {
      std::lock_guard lock(mutex_);
      if (stopped_) return;
      if (n == 1 && event.data.fd != wake_) request = on_event(event.data.fd, event.events);
    }
    if (request) serve_(*request);
  }
}

void WaitingRoom::sweep_until_stopped() {
  std::unique_lock lock(mutex_);
  while (!stopping_.wait_for(lock, kSweepInterval, [this] { return stopped_; })) sweep(Clock::now());
}

void WaitingRoom::welcome(int socket) {
  std::string address = peer_address(socket);
  size_t& from_address = per_address_[address];
  if (connections_.size() >= limits_.max_connections || from_address >= limits_.max_connections_per_address) {
    send_refusal(socket, 503, "too many connections; try again");
    if (from_address == 0) per_address_.erase(address);
    ::close(socket);
    return;
  }
  if (!watch(epoll_, socket, EPOLL_CTL_ADD)) {
    if (from_address == 0) per_address_.erase(address);
    ::close(socket);
    return;
  }
  ++from_address;
  Connection& connection = connections_[socket];
  connection.address = std::move(address);
  connection.deadline = Clock::now() + limits_.request_timeout;
}

std::optional<WaitingRoom::Handoff> WaitingRoom::on_event(int socket, uint32_t events) {
  auto it = connections_.find(socket);
  if (it == connections_.end()) return std::nullopt;
  switch (it->second.phase) {
    case Phase::kLingering:
      if (drain(socket)) close_connection(it);
      return std::nullopt;
    case Phase::kWaiting:
      if (!(events & (EPOLLERR | EPOLLHUP))) return examine(it, (events & EPOLLRDHUP) != 0);
      close_connection(it);
      return std::nullopt;
    case Phase::kServed:
      return std::nullopt;
  }
  return std::nullopt;
}

// `client_done`: the client has closed its sending side, so no more bytes will come.
std::optional<WaitingRoom::Handoff> WaitingRoom::examine(Connections::iterator it, bool client_done) {
  const int socket = it->first;
  Connection& connection = it->second;
  const ssize_t n = ::recv(socket, peeked_.data(), peeked_.size(), MSG_PEEK | MSG_DONTWAIT);
  if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
    close_connection(it);
    return std::nullopt;
  }
  if (n < 0) return std::nullopt;
  if (!connection.started) {
    connection.started = true;
    if (!connection.fresh) connection.deadline = Clock::now() + limits_.request_timeout;
  }
  const Framing framing = frame_request(std::string_view(peeked_.data(), size_t(n)), limits_.framing);
  if (const Refusal* refusal = std::get_if<Refusal>(&framing)) {
    refuse(it, refusal->status, refusal->message);
    return std::nullopt;
  }
  const FramedRequest* request = std::get_if<FramedRequest>(&framing);
  if (request && arrived(socket, size_t(n), request->bytes_to_read())) {
    connection.phase = Phase::kServed;
    ++connection.served;
    return Handoff{socket, request->bytes_to_read(),
                   request->close_after() || connection.served >= limits_.max_requests_per_connection};
  }
  if (client_done) close_connection(it);  // the rest of the request can no longer come
  return std::nullopt;
}

void WaitingRoom::refuse(Connections::iterator it, int status, const std::string& message) {
  send_refusal(it->first, status, message);
  linger(it);
}

void WaitingRoom::linger(Connections::iterator it) {
  const int socket = it->first;
  Connection& connection = it->second;
  ::shutdown(socket, SHUT_WR);
  connection.phase = Phase::kLingering;
  connection.deadline = Clock::now() + limits_.linger;
  if (drain(socket)) close_connection(it);
}

void WaitingRoom::wait_for_next(Connections::iterator it) {
  Connection& connection = it->second;
  connection.phase = Phase::kWaiting;
  connection.fresh = false;
  connection.started = false;
  connection.deadline = Clock::now() + limits_.keep_alive_timeout;
  // What came while the connection was served raised no event that counted: a pipelined
  // request, or the next one of a client that had its answer already.
  if (!watch(epoll_, it->first, EPOLL_CTL_MOD)) close_connection(it);
}

void WaitingRoom::close_connection(Connections::iterator it) {
  ::close(it->first);  // also leaves the epoll set
  auto from_address = per_address_.find(it->second.address);
  if (from_address != per_address_.end() && --from_address->second == 0) per_address_.erase(from_address);
  connections_.erase(it);
}

void WaitingRoom::sweep(Clock::time_point now) {
  std::vector<int> expired;
  for (const auto& [socket, connection] : connections_)
    if (connection.phase != Phase::kServed && connection.deadline <= now) expired.push_back(socket);
  const std::string late =
      "the request did not arrive within " + std::to_string(limits_.request_timeout.count() / 1000) + " s";
  for (int socket : expired) {
    auto it = connections_.find(socket);
    if (it->second.phase == Phase::kWaiting && it->second.started)
      refuse(it, 408, late);
    else
      close_connection(it);
  }
}

}  // namespace bookforge::serve
