#include "serve/listen_socket.h"

#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

namespace bookforge::serve {
namespace {

std::string why_not(int error) {
  switch (error) {
    case EADDRINUSE:
      return "the port is in use (another bookforge serve?)";
    case EACCES:
      return "permission denied (ports below 1024 need privileges)";
    case EADDRNOTAVAIL:
      return "no network interface of this machine has that address";
    default:
      return std::strerror(error);
  }
}

// One address: a socket bound and listening, or the errno of the step that failed.
Result<int> listen_on(const addrinfo& address, int& error) {
  const int fd = ::socket(address.ai_family, address.ai_socktype | SOCK_CLOEXEC, address.ai_protocol);
  if (fd < 0) {
    error = errno;
    return Error{};
  }
  const int yes = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  if (::bind(fd, address.ai_addr, address.ai_addrlen) != 0 || ::listen(fd, SOMAXCONN) != 0) {
    error = errno;
    ::close(fd);
    return Error{};
  }
  return fd;
}

int bound_port(int fd) {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) return -1;
  if (address.ss_family == AF_INET) return ntohs(reinterpret_cast<const sockaddr_in&>(address).sin_port);
  if (address.ss_family == AF_INET6) return ntohs(reinterpret_cast<const sockaddr_in6&>(address).sin6_port);
  return -1;
}

}  // namespace

Result<ListenSocket> open_listen_socket(const std::string& host, int port) {
  const std::string where = "cannot listen on " + host + ":" + std::to_string(port) + ": ";
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  if (const int failed =
          ::getaddrinfo(host.empty() ? nullptr : host.c_str(), service.c_str(), &hints, &found))
    return Error{where + ::gai_strerror(failed)};
  std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> addresses(found, ::freeaddrinfo);
  int error = EADDRNOTAVAIL;
  for (const addrinfo* address = found; address; address = address->ai_next) {
    Result<int> fd = listen_on(*address, error);
    if (!fd) continue;
    const int bound = bound_port(*fd);
    if (bound < 0) {
      error = errno;
      ::close(*fd);
      continue;
    }
    return ListenSocket{*fd, bound};
  }
  return Error{where + why_not(error)};
}

}  // namespace bookforge::serve
