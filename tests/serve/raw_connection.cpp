#include "serve/raw_connection.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>

namespace bookforge::test {
namespace {

using Clock = std::chrono::steady_clock;

// The length of the first whole response in `bytes`, or 0 if it has not all come.
size_t response_length(const std::string& bytes) {
  const size_t head_end = bytes.find("\r\n\r\n");
  if (head_end == std::string::npos) return 0;
  size_t body = 0;
  const std::string head = bytes.substr(0, head_end);
  for (const char* name : {"\r\nContent-Length:", "\r\ncontent-length:"}) {
    const size_t at = head.find(name);
    if (at != std::string::npos) body = size_t(std::atoll(head.c_str() + at + std::string(name).size()));
  }
  const size_t total = head_end + 4 + body;
  return bytes.size() >= total ? total : 0;
}

}  // namespace

RawConnection::RawConnection(int port) {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(uint16_t(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd_ >= 0 && ::connect(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) close();
}

RawConnection::~RawConnection() { close(); }

void RawConnection::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

bool RawConnection::send(const std::string& bytes) {
  size_t sent = 0;
  while (fd_ >= 0 && sent < bytes.size()) {
    const ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += size_t(n);
  }
  return fd_ >= 0;
}

bool RawConnection::receive(std::chrono::steady_clock::time_point deadline, std::string& into) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  pollfd ready{fd_, POLLIN, 0};
  if (fd_ < 0 || left.count() <= 0 || ::poll(&ready, 1, int(left.count())) <= 0) return false;
  char buffer[4096];
  const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
  if (n <= 0) {
    closed_by_server_ = true;
    return false;
  }
  into.append(buffer, size_t(n));
  return true;
}

std::string RawConnection::read_until_closed(std::chrono::milliseconds wait) {
  std::string received = std::move(pending_);
  pending_.clear();
  const Clock::time_point deadline = Clock::now() + wait;
  while (receive(deadline, received)) {
  }
  return received;
}

std::string RawConnection::read_response(std::chrono::milliseconds wait) {
  const Clock::time_point deadline = Clock::now() + wait;
  while (response_length(pending_) == 0 && receive(deadline, pending_)) {
  }
  const size_t length = response_length(pending_);
  std::string response = pending_.substr(0, length);
  pending_.erase(0, length);
  return response;
}

int status_of(const std::string& response) {
  if (!response.starts_with("HTTP/1.1 ")) return 0;
  return std::atoi(response.c_str() + 9);
}

std::string body_of(const std::string& response) {
  const size_t head_end = response.find("\r\n\r\n");
  return head_end == std::string::npos ? std::string() : response.substr(head_end + 4);
}

}  // namespace bookforge::test
