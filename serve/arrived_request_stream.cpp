#include "serve/arrived_request_stream.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstring>

namespace bookforge::serve {
namespace {

using Clock = std::chrono::steady_clock;

// How often a write waiting for the client checks whether the server is stopping.
constexpr std::chrono::milliseconds kStopCheck{100};

void address_text(const sockaddr_storage& address, std::string& ip, int& port) {
  char text[INET6_ADDRSTRLEN] = "";
  if (address.ss_family == AF_INET) {
    const auto& v4 = reinterpret_cast<const sockaddr_in&>(address);
    ::inet_ntop(AF_INET, &v4.sin_addr, text, sizeof text);
    port = ntohs(v4.sin_port);
  } else if (address.ss_family == AF_INET6) {
    const auto& v6 = reinterpret_cast<const sockaddr_in6&>(address);
    ::inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof text);
    port = ntohs(v6.sin6_port);
  }
  ip = text;
}

}  // namespace

ArrivedRequestStream::ArrivedRequestStream(int socket, std::string request, Clock::time_point write_deadline,
                                           const std::atomic<bool>& stopping)
    : socket_(socket), request_(std::move(request)), write_deadline_(write_deadline), stopping_(stopping) {}

bool ArrivedRequestStream::is_readable() const { return read_ < request_.size(); }

bool ArrivedRequestStream::is_writable() const {
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(write_deadline_ - Clock::now());
    if (left.count() <= 0 || stopping_.load()) return false;
    pollfd ready{socket_, POLLOUT, 0};
    const int n = ::poll(&ready, 1, int(std::min(left, kStopCheck).count()));
    if (n > 0) return (ready.revents & (POLLERR | POLLHUP | POLLNVAL)) == 0;
    if (n < 0 && errno != EINTR) return false;
  }
}

ssize_t ArrivedRequestStream::read(char* ptr, size_t size) {
  const size_t n = std::min(size, request_.size() - read_);
  std::memcpy(ptr, request_.data() + read_, n);
  read_ += n;
  return ssize_t(n);  // 0 past the end: the request is all there is to read
}

ssize_t ArrivedRequestStream::write(const char* ptr, size_t size) {
  // Sent at once while the socket's buffer has room (nearly always); waited for only when not.
  do {
    if (stopping_.load()) return -1;
    const ssize_t n = ::send(socket_, ptr, size, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n >= 0 || (errno != EAGAIN && errno != EINTR)) return n;
  } while (is_writable());
  return -1;
}

void ArrivedRequestStream::get_remote_ip_and_port(std::string& ip, int& port) const {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  if (::getpeername(socket_, reinterpret_cast<sockaddr*>(&address), &length) == 0)
    address_text(address, ip, port);
}

void ArrivedRequestStream::get_local_ip_and_port(std::string& ip, int& port) const {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  if (::getsockname(socket_, reinterpret_cast<sockaddr*>(&address), &length) == 0)
    address_text(address, ip, port);
}

bool read_arrived_bytes(int socket, size_t bytes, std::string& out) {
  out.resize(bytes);
  size_t got = 0;
  while (got < bytes) {
    const ssize_t n = ::recv(socket, out.data() + got, bytes - got, MSG_DONTWAIT);
    if (n > 0) {
      got += size_t(n);
    } else if (n == 0 || errno != EINTR) {
      return false;
    }
  }
  return true;
}

bool peer_has_left(int socket) {
  pollfd state{socket, POLLRDHUP, 0};
  if (::poll(&state, 1, 0) <= 0) return false;
  return (state.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) != 0;
}

}  // namespace bookforge::serve
