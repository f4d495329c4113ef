// The server's listening socket, made here rather than by cpp-httplib: the library sets
// SO_REUSEPORT, with which a second server on a busy port starts without error and the kernel
// splits the connections between the two. Only SO_REUSEADDR is set (a restart may bind while the
// last run's connections are in TIME_WAIT), and a busy port is an error that says so.
#pragma once

#include <string>

#include "base/result.h"

namespace bookforge::serve {

struct ListenSocket {
  int fd = -1;
  int port = 0;  // the port bound (the one the kernel picked for port 0)
};

// Binds `host` (a name or an address; the first address it resolves to that binds) and
// `port`, and listens with the system's largest backlog. Errors name host and port and why:
// "cannot listen on 127.0.0.1:8080: the port is in use (another bookforge serve?)".
Result<ListenSocket> open_listen_socket(const std::string& host, int port);

}  // namespace bookforge::serve
