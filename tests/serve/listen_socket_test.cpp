// The listening socket: a second server on a busy port is refused, by a message that says so,
// rather than sharing the port (SO_REUSEPORT) and getting half of the connections.
#include "serve/listen_socket.h"

#include <gtest/gtest.h>
#include <unistd.h>

namespace bookforge::serve {
namespace {

TEST(ListenSocket, ABusyPortIsAnErrorNamingHostAndPort) {
  Result<ListenSocket> first = open_listen_socket("127.0.0.1", 0);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_GT(first->port, 0);
  Result<ListenSocket> second = open_listen_socket("127.0.0.1", first->port);
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error().message, "cannot listen on 127.0.0.1:" + std::to_string(first->port) +
                                        ": the port is in use (another bookforge serve?)");
  ::close(first->fd);
  // Free again once the first has closed (SO_REUSEADDR: no wait for TIME_WAIT).
  Result<ListenSocket> again = open_listen_socket("127.0.0.1", first->port);
  ASSERT_TRUE(again) << again.error().message;
  ::close(again->fd);
}

}  // namespace
}  // namespace bookforge::serve
