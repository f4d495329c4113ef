// The Host names the server answers to. A page on another site can make the browser send
// requests to this server by pointing its own name at 127.0.0.1 (DNS rebinding); the browser
// then treats the answers as that site's and lets its script read them. Its requests carry the
// site's name in Host, so only the names this server is reached by are accepted: localhost,
// 127.0.0.1 and [::1] (with or without a port), and the --host it was started with. Listening
// on every address (0.0.0.0 or ::), it is also reached by any of the machine's addresses, so
// any IP address is accepted then (a rebinding page always comes by a name).
// A request without a Host header (HTTP/1.0) is accepted: no browser sends one.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bookforge::serve {

class AllowedHosts {
 public:
  explicit AllowedHosts(std::string_view listen_host);

  // `host`: the Host header's value, nullopt when there is none.
  bool allows(const std::optional<std::string>& host) const;
  // "localhost, 127.0.0.1, [::1]" and the rest, for an error message.
  std::string describe() const;

 private:
  std::vector<std::string> names_;  // lower case, without brackets or port
  bool any_address_ = false;
};

}  // namespace bookforge::serve
