// Where a request ends, read from the bytes that have arrived so far, before any thread is lent
// to it (serve/waiting_room.h): its head runs to the first blank line, and its body is as long
// as Content-Length says. A request the server would refuse whatever its handler says is
// refused here, from its head alone:
//   414  no line end in the first max_head_bytes (the request line alone is too long)
//   431  no blank line in the first max_head_bytes (the head is too long)
//   411  a Transfer-Encoding (a chunked body cannot be framed without reading it)
//   400  a Content-Length that is not a number, or two that differ
//   413  a Content-Length over max_body_bytes
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <variant>

namespace bookforge::serve {

struct FramingLimits {
  size_t max_head_bytes = 8 * 1024;
  size_t max_body_bytes = 16 * 1024;
};

// The head has not all arrived yet.
struct Incomplete {};

struct FramedRequest {
  size_t head_bytes = 0;  // through the blank line
  size_t body_bytes = 0;  // Content-Length; 0 when absent
  // GET and HEAD are answered after their body has arrived (and been read), so the connection
  // can carry the next request. Any other method is refused (405) from its head at once: its
  // body is never waited for, and the connection is closed after the answer.
  bool read_body = true;
  size_t bytes_to_read() const { return head_bytes + (read_body ? body_bytes : 0); }
  bool close_after() const { return !read_body && body_bytes > 0; }
};

struct Refusal {
  int status = 400;
  std::string message;
};

using Framing = std::variant<Incomplete, FramedRequest, Refusal>;

// `received`: the bytes of the connection not yet consumed, from the start of a request; only
// the first limits.max_head_bytes are looked at.
Framing frame_request(std::string_view received, const FramingLimits& limits);

}  // namespace bookforge::serve
