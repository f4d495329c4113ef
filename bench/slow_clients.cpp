#include "slow_clients.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

const std::string kRequestLine = "GET /api/info HTTP/1.1\r\n";

bool send_all(int socket, const std::string& text) {
  return ::send(socket, text.data(), text.size(), MSG_NOSIGNAL | MSG_DONTWAIT) == ssize_t(text.size());
}

// Whether the server has answered or closed the connection (either ends this slow client).
bool ended_by_server(int socket) {
  pollfd state{socket, POLLIN, 0};
  return ::poll(&state, 1, 0) > 0;
}

}  // namespace

SlowClients::SlowClients(std::string host, int port, int count, std::chrono::milliseconds interval)
    : host_(std::move(host)), port_(port), interval_(interval), sockets_(size_t(count), -1) {}

SlowClients::~SlowClients() { stop(); }

int SlowClients::open_one() {
  sockaddr_in6 v6{};
  sockaddr_in v4{};
  const bool is_v6 = ::inet_pton(AF_INET6, host_.c_str(), &v6.sin6_addr) == 1;
  if (!is_v6 && ::inet_pton(AF_INET, host_.c_str(), &v4.sin_addr) != 1) return -1;
  v6.sin6_family = AF_INET6;
  v6.sin6_port = htons(uint16_t(port_));
  v4.sin_family = AF_INET;
  v4.sin_port = htons(uint16_t(port_));
  const int fd = ::socket(is_v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const sockaddr* address =
      is_v6 ? reinterpret_cast<const sockaddr*>(&v6) : reinterpret_cast<const sockaddr*>(&v4);
  if (fd < 0 || ::connect(fd, address, is_v6 ? sizeof v6 : sizeof v4) != 0 ||
      !send_all(fd, kRequestLine + "Host: " + host_ + "\r\n")) {
    if (fd >= 0) ::close(fd);
    return -1;
  }
  return fd;
}

void SlowClients::start() {
  for (int& socket : sockets_) socket = open_one();
  thread_ = std::thread([this] { trickle(); });
}

// One connection after the other, spaced so that each sends a line every interval.
void SlowClients::trickle() {
  const auto step = interval_ / std::max<size_t>(sockets_.size(), 1);
  uint64_t line = 0;
  while (!stopping_.load()) {
    for (int& socket : sockets_) {
      if (stopping_.load()) return;
      std::this_thread::sleep_for(step);
      if (socket >= 0 && !ended_by_server(socket) &&
          send_all(socket, "X-Slow-" + std::to_string(++line) + ": 1\r\n"))
        continue;
      if (socket >= 0) {
        ::close(socket);
        ++reopened_;
      }
      socket = open_one();
    }
  }
}

SlowClients::Tally SlowClients::stop() {
  stopping_.store(true);
  if (thread_.joinable()) thread_.join();
  Tally tally;
  tally.reopened = reopened_;
  for (int& socket : sockets_) {
    if (socket < 0) continue;
    ++tally.open;
    ::close(socket);
    socket = -1;
  }
  return tally;
}
