#include "serve/request_framing.h"

#include <algorithm>
#include <charconv>
#include <optional>

namespace bookforge::serve {
namespace {

bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return (x | 0x20) == (y | 0x20);  // ASCII letters only: header names are tokens
         });
}

std::string_view trimmed(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

// The end of the head: just past the first empty line ("\r\n\r\n", or a bare "\n\n", which the
// parser then refuses with a 400 of its own rather than the client waiting for a timeout).
std::optional<size_t> head_end(std::string_view bytes) {
  for (size_t newline = bytes.find('\n'); newline != std::string_view::npos;
       newline = bytes.find('\n', newline + 1)) {
    const size_t next = newline + 1;
    if (next < bytes.size() && bytes[next] == '\n') return next + 1;
    if (next + 1 < bytes.size() && bytes[next] == '\r' && bytes[next + 1] == '\n') return next + 2;
  }
  return std::nullopt;
}

}  // namespace

Framing frame_request(std::string_view received, const FramingLimits& limits) {
  const std::string_view window = received.substr(0, limits.max_head_bytes);
  const std::optional<size_t> end = head_end(window);
  if (!end) {
    if (window.size() < limits.max_head_bytes) return Incomplete{};
    const std::string most = std::to_string(limits.max_head_bytes);
    if (window.find('\n') == std::string_view::npos)
      return Refusal{414, "request line too long (at most " + most + " bytes)"};
    return Refusal{431, "request head too large (at most " + most + " bytes)"};
  }
  const std::string_view head = window.substr(0, *end);
  FramedRequest framed;
  framed.head_bytes = *end;
  const std::string_view method = head.substr(0, head.find(' '));
  framed.read_body = method == "GET" || method == "HEAD";
  std::optional<size_t> length;
  size_t line_start = head.find('\n') + 1;
  while (line_start < head.size()) {
    const size_t line_end = head.find('\n', line_start);
    const std::string_view line = head.substr(line_start, line_end - line_start);
    line_start = line_end + 1;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view name = line.substr(0, colon);
    const std::string_view value = trimmed(line.substr(colon + 1));
    if (same_name(name, "transfer-encoding"))
      return Refusal{411, "a request body needs a Content-Length (Transfer-Encoding is not accepted)"};
    if (!same_name(name, "content-length")) continue;
    size_t parsed = 0;
    const auto [stop, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
    if (value.empty() || error != std::errc() || stop != value.data() + value.size() ||
        (length && *length != parsed))
      return Refusal{400, "malformed Content-Length"};
    length = parsed;
  }
  framed.body_bytes = length.value_or(0);
  if (framed.body_bytes > limits.max_body_bytes)
    return Refusal{413,
                   "request body too large (at most " + std::to_string(limits.max_body_bytes) + " bytes)"};
  return framed;
}

}  // namespace bookforge::serve
