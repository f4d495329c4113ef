// Where a request ends, from the bytes that have come: nothing is lent a thread before its
// head and the body it announces are all there, and what would be refused anyway is refused
// from the head.
#include "serve/request_framing.h"

#include <gtest/gtest.h>

namespace bookforge::serve {
namespace {

const FramingLimits kLimits;

Refusal refusal_of(std::string_view received) {
  const Framing framing = frame_request(received, kLimits);
  EXPECT_TRUE(std::holds_alternative<Refusal>(framing)) << received.substr(0, 80);
  return std::holds_alternative<Refusal>(framing) ? std::get<Refusal>(framing) : Refusal{};
}

FramedRequest framed(std::string_view received) {
  const Framing framing = frame_request(received, kLimits);
  EXPECT_TRUE(std::holds_alternative<FramedRequest>(framing)) << received.substr(0, 80);
  return std::holds_alternative<FramedRequest>(framing) ? std::get<FramedRequest>(framing) : FramedRequest{};
}

TEST(RequestFraming, AHeadIsCompleteAtItsBlankLineAndNotBefore) {
  const std::string request = "GET /api/info HTTP/1.1\r\nHost: localhost\r\n\r\n";
  for (size_t cut = 0; cut < request.size(); ++cut)
    EXPECT_TRUE(std::holds_alternative<Incomplete>(frame_request(request.substr(0, cut), kLimits))) << cut;
  const FramedRequest whole = framed(request + "GET /next");  // a pipelined request follows
  EXPECT_EQ(whole.head_bytes, request.size());
  EXPECT_EQ(whole.bytes_to_read(), request.size());
  EXPECT_FALSE(whole.close_after());
}

TEST(RequestFraming, AGetBodyIsWaitedForAndReadSoTheConnectionGoesOn) {
  const std::string head = "GET / HTTP/1.1\r\ncontent-LENGTH:  12 \r\n\r\n";
  const FramedRequest request = framed(head);
  EXPECT_EQ(request.body_bytes, 12u);
  EXPECT_EQ(request.bytes_to_read(), head.size() + 12);
  EXPECT_FALSE(request.close_after());
}

TEST(RequestFraming, OtherMethodsAreTakenWithoutTheirBodyAndEndTheConnection) {
  const std::string head = "POST /api/info HTTP/1.1\r\nContent-Length: 5000\r\n\r\n";
  const FramedRequest post = framed(head);
  EXPECT_EQ(post.bytes_to_read(), head.size());
  EXPECT_TRUE(post.close_after());
  // Without a body the connection can carry the next request.
  EXPECT_FALSE(framed("DELETE /x HTTP/1.1\r\n\r\n").close_after());
}

TEST(RequestFraming, ABareLineFeedHeadIsHandedToTheParserToRefuse) {
  EXPECT_EQ(framed("GET / HTTP/1.1\nHost: a\n\n").head_bytes, 24u);
}

TEST(RequestFraming, OversizedHeadsAreRefusedOnceTheLimitHasArrived) {
  const std::string long_line = "GET /?" + std::string(kLimits.max_head_bytes, 'x');
  EXPECT_EQ(refusal_of(long_line).status, 414);
  // A 9 KB header line: the head is too large, the request line is fine.
  const std::string big_header = "GET / HTTP/1.1\r\nX-Big: " + std::string(9000, 'y') + "\r\n\r\n";
  const Refusal refused = refusal_of(big_header);
  EXPECT_EQ(refused.status, 431);
  EXPECT_NE(refused.message.find("8192"), std::string::npos) << refused.message;
  // Short of the limit it may still come.
  EXPECT_TRUE(std::holds_alternative<Incomplete>(frame_request(big_header.substr(0, 8000), kLimits)));
}

TEST(RequestFraming, BodiesMustBeFramedByOneSaneContentLength) {
  EXPECT_EQ(refusal_of("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello").status, 411);
  EXPECT_EQ(refusal_of("GET / HTTP/1.1\r\nContent-Length: 16385\r\n\r\n").status, 413);
  EXPECT_EQ(framed("GET / HTTP/1.1\r\nContent-Length: 16384\r\n\r\n").body_bytes, 16384u);
  for (const char* bad : {"-1", "12a", "", "0x10", "99999999999999999999999"})
    EXPECT_EQ(refusal_of("GET / HTTP/1.1\r\nContent-Length: " + std::string(bad) + "\r\n\r\n").status, 400)
        << bad;
  EXPECT_EQ(refusal_of("GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n").status, 400);
  EXPECT_EQ(framed("GET / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\n").body_bytes, 3u);
}

}  // namespace
}  // namespace bookforge::serve
