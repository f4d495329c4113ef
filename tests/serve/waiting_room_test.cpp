// The waiting room on real loopback connections: a request is handed over only once it has
// all arrived, pipelined requests one at a time, and a client that is too slow or one too many
// is answered with a JSON error and closed, without any thread waiting on it.
#include "serve/waiting_room.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <condition_variable>
#include <deque>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "serve/arrived_request_stream.h"
#include "serve/listen_socket.h"
#include "serve/raw_connection.h"

namespace bookforge::serve {
namespace {

using namespace std::chrono_literals;
using test::RawConnection;

class WaitingRoomTest : public ::testing::Test {
 protected:
  void TearDown() override {
    if (room_) room_->stop();
    if (listening_.fd >= 0) ::close(listening_.fd);
  }

  void open_room(const WaitingRoom::Limits& limits) {
    Result<ListenSocket> listening = open_listen_socket("127.0.0.1", 0);
    ASSERT_TRUE(listening) << listening.error().message;
    listening_ = *listening;
    // The room's workers only note the request; the test answers it (echo()) as a server would.
    Result<std::unique_ptr<WaitingRoom>> room =
        WaitingRoom::open(limits, 2, [this](const WaitingRoom::Handoff& h) {
          std::lock_guard lock(mutex_);
          handoffs_.push_back(h);
          handed_.notify_all();
        });
    ASSERT_TRUE(room) << room.error().message;
    room_ = std::move(*room);
  }

  // A client connection, accepted and admitted to the room.
  std::unique_ptr<RawConnection> connect() {
    auto client = std::make_unique<RawConnection>(listening_.port);
    EXPECT_TRUE(client->connected());
    const int accepted = ::accept(listening_.fd, nullptr, nullptr);
    EXPECT_GE(accepted, 0);
    room_->admit(accepted);
    return client;
  }

  std::optional<WaitingRoom::Handoff> next_handoff(std::chrono::milliseconds wait) {
    std::unique_lock lock(mutex_);
    if (!handed_.wait_for(lock, wait, [this] { return !handoffs_.empty(); })) return std::nullopt;
    WaitingRoom::Handoff handoff = handoffs_.front();
    handoffs_.pop_front();
    return handoff;
  }

  // What a worker does: reads the request's bytes and answers with them as the body.
  void echo(const WaitingRoom::Handoff& handoff, bool keep_open) {
    std::string request;
    ASSERT_TRUE(read_arrived_bytes(handoff.socket, handoff.bytes, request));
    const std::string response =
        "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(request.size()) + "\r\n\r\n" + request;
    ASSERT_EQ(::send(handoff.socket, response.data(), response.size(), MSG_NOSIGNAL),
              ssize_t(response.size()));
    room_->give_back(handoff.socket, keep_open);
  }

  ListenSocket listening_;
  std::unique_ptr<WaitingRoom> room_;
  std::mutex mutex_;
  std::condition_variable handed_;
  std::deque<WaitingRoom::Handoff> handoffs_;
};

TEST_F(WaitingRoomTest, ARequestTrickledByteByByteIsHandedOverWhole) {
  open_room({});
  std::unique_ptr<RawConnection> client = connect();
  const std::string request = "GET /api/info HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\n\r\nbody";
  for (size_t i = 0; i + 1 < request.size(); ++i) {
    ASSERT_TRUE(client->send(request.substr(i, 1)));
    std::this_thread::sleep_for(1ms);
  }
  EXPECT_FALSE(next_handoff(200ms)) << "handed over before its last byte";
  ASSERT_TRUE(client->send(request.substr(request.size() - 1)));
  std::optional<WaitingRoom::Handoff> handoff = next_handoff(5s);
  ASSERT_TRUE(handoff);
  EXPECT_EQ(handoff->bytes, request.size());
  EXPECT_FALSE(handoff->close_after);
  echo(*handoff, true);
  EXPECT_EQ(test::body_of(client->read_response(5s)), request);
}

TEST_F(WaitingRoomTest, PipelinedRequestsAreHandedOverOneAtATime) {
  open_room({});
  std::unique_ptr<RawConnection> client = connect();
  const std::string first = "GET /1 HTTP/1.1\r\nHost: localhost\r\n\r\n";
  const std::string second = "GET /2 HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\n\r\nabc";
  ASSERT_TRUE(client->send(first + second));
  for (const std::string& request : {first, second}) {
    std::optional<WaitingRoom::Handoff> handoff = next_handoff(5s);
    ASSERT_TRUE(handoff);
    EXPECT_EQ(handoff->bytes, request.size());
    EXPECT_FALSE(next_handoff(100ms)) << "the next request was handed over before this one was answered";
    echo(*handoff, true);
    EXPECT_EQ(test::body_of(client->read_response(5s)), request);
  }
}

TEST_F(WaitingRoomTest, ARequestThatDoesNotArriveInTimeGets408) {
  WaitingRoom::Limits limits;
  limits.request_timeout = 300ms;
  open_room(limits);
  std::unique_ptr<RawConnection> client = connect();
  ASSERT_TRUE(client->send("GET / HTTP/1.1\r\nHost: localhost\r\n"));
  const std::string answer = client->read_until_closed(10s);
  EXPECT_EQ(test::status_of(answer), 408) << answer;
  EXPECT_TRUE(client->closed_by_server());
  const nlohmann::json error = nlohmann::json::parse(test::body_of(answer));
  EXPECT_TRUE(error["error"].get<std::string>().starts_with("the request did not arrive within")) << answer;
  EXPECT_FALSE(next_handoff(0ms));
}

TEST_F(WaitingRoomTest, ARefusedRequestGetsItsAnswerThoughItsBodyKeepsComing) {
  open_room({});
  std::unique_ptr<RawConnection> client = connect();
  // The room answers 413 from the head and reads what follows, so the client's sending does
  // not fail and the answer is not lost to a reset.
  EXPECT_TRUE(client->send("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000000\r\n\r\n" +
                           std::string(300'000, 'z')));
  const std::string answer = client->read_until_closed(10s);
  EXPECT_EQ(test::status_of(answer), 413) << answer;
  EXPECT_NE(answer.find("Connection: close"), std::string::npos) << answer;
}

TEST_F(WaitingRoomTest, TheNewestConnectionBeyondAnAddressesCapIsRefused) {
  WaitingRoom::Limits limits;
  limits.max_connections_per_address = 2;
  open_room(limits);
  std::unique_ptr<RawConnection> first = connect(), second = connect(), third = connect();
  const std::string refused = third->read_until_closed(5s);
  EXPECT_EQ(test::status_of(refused), 503) << refused;
  EXPECT_TRUE(third->closed_by_server());
  // The first two are still served.
  ASSERT_TRUE(second->send("GET / HTTP/1.1\r\n\r\n"));
  std::optional<WaitingRoom::Handoff> handoff = next_handoff(5s);
  ASSERT_TRUE(handoff);
  echo(*handoff, false);
  EXPECT_EQ(test::status_of(second->read_until_closed(5s)), 200);
  EXPECT_TRUE(second->closed_by_server());
  // Once one has closed, a new one is let in.
  second->close();
  std::this_thread::sleep_for(100ms);  // for the room to see it go
  std::unique_ptr<RawConnection> fourth = connect();
  ASSERT_TRUE(fourth->send("GET / HTTP/1.1\r\n\r\n"));
  EXPECT_TRUE(next_handoff(5s));
}

TEST_F(WaitingRoomTest, StopClosesTheConnectionsWaitingThere) {
  open_room({});
  std::unique_ptr<RawConnection> client = connect();
  ASSERT_TRUE(client->send("GET / HTTP/1.1\r\n"));
  room_->stop();
  EXPECT_EQ(client->read_until_closed(5s), "");
  EXPECT_TRUE(client->closed_by_server());
}

}  // namespace
}  // namespace bookforge::serve
