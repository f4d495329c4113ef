// The slow clients of bench/serve_load.sh: connections that send a request's head one line at
// a time, a line every `interval`, and never its end (what a slowloris attack does). A
// connection the server answers or closes (a 408 once its request deadline passes) is opened
// again at once, so `count` of them stay open for as long as they run.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

class SlowClients {
 public:
  SlowClients(std::string host, int port, int count, std::chrono::milliseconds interval);
  ~SlowClients();
  SlowClients(const SlowClients&) = delete;
  SlowClients& operator=(const SlowClients&) = delete;

  // Opens the connections, sends each its request line, and trickles on a thread of its own.
  void start();

  struct Tally {
    int open = 0;           // connections open when stopped
    uint64_t reopened = 0;  // connections the server ended, opened again
  };
  // Stops trickling and closes the connections.
  Tally stop();

 private:
  int open_one();
  void trickle();

  const std::string host_;
  const int port_;
  const std::chrono::milliseconds interval_;
  std::vector<int> sockets_;  // -1 where a connection could not be opened
  uint64_t reopened_ = 0;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};
