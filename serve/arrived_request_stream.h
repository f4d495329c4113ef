// The httplib::Stream a request is served through once it has wholly arrived
// (serve/waiting_room.h): reads come from the request's bytes, read off the socket beforehand,
// and never wait; writes go to the socket, bounded for the whole response by one deadline (a
// client that reads slowly cannot hold a thread for longer), and give up when the server stops.
#pragma once

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <string>

namespace bookforge::serve {

class ArrivedRequestStream : public httplib::Stream {
 public:
  ArrivedRequestStream(int socket, std::string request, std::chrono::steady_clock::time_point write_deadline,
                       const std::atomic<bool>& stopping);

  bool is_readable() const override;
  bool is_writable() const override;
  ssize_t read(char* ptr, size_t size) override;
  ssize_t write(const char* ptr, size_t size) override;
  void get_remote_ip_and_port(std::string& ip, int& port) const override;
  void get_local_ip_and_port(std::string& ip, int& port) const override;
  int socket() const override { return socket_; }

 private:
  int socket_;
  std::string request_;
  size_t read_ = 0;
  std::chrono::steady_clock::time_point write_deadline_;
  const std::atomic<bool>& stopping_;
};

// Reads exactly `bytes` bytes the kernel already holds for `socket`; false if they are not
// all there (the connection broke).
bool read_arrived_bytes(int socket, size_t bytes, std::string& out);

// Whether the client closed its side of the connection (or it broke): what a search on its
// behalf can stop for. Pipelined requests waiting to be read are not a hang-up.
bool peer_has_left(int socket);

}  // namespace bookforge::serve
