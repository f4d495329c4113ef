// The Host names the server answers to: its loopback names and the address it listens on, so
// that a page of another site that points its own name at this machine reads nothing.
#include "serve/allowed_hosts.h"

#include <gtest/gtest.h>

namespace bookforge::serve {
namespace {

TEST(AllowedHosts, LoopbackNamesWithOrWithoutAPortAreAccepted) {
  const AllowedHosts hosts("127.0.0.1");
  for (const char* host :
       {"localhost", "LocalHost:8080", "127.0.0.1", "127.0.0.1:8080", "[::1]", "[::1]:8080"})
    EXPECT_TRUE(hosts.allows(std::string(host))) << host;
  EXPECT_TRUE(hosts.allows(std::nullopt)) << "HTTP/1.0 sends no Host";
}

TEST(AllowedHosts, OtherNamesAreRefused) {
  const AllowedHosts hosts("127.0.0.1");
  for (const char* host : {"evil.example", "evil.example:8080", "localhost.evil.example", "127.0.0.2", "",
                           "[::1", "[::1]x", "192.168.1.5:8080"})
    EXPECT_FALSE(hosts.allows(std::string(host))) << host;
  EXPECT_EQ(hosts.describe(), "localhost, 127.0.0.1, [::1]");
}

TEST(AllowedHosts, TheAddressListenedOnIsAccepted) {
  const AllowedHosts lan("192.168.1.5");
  EXPECT_TRUE(lan.allows(std::string("192.168.1.5:8080")));
  EXPECT_TRUE(lan.allows(std::string("localhost")));
  EXPECT_FALSE(lan.allows(std::string("192.168.1.6")));
  const AllowedHosts v6("fe80::1");
  EXPECT_TRUE(v6.allows(std::string("[fe80::1]:8080")));
  EXPECT_EQ(v6.describe(), "localhost, 127.0.0.1, [::1], [fe80::1]");
}

TEST(AllowedHosts, ListeningOnEveryAddressAcceptsAnyAddressButNoOtherName) {
  for (const char* any : {"0.0.0.0", "::"}) {
    const AllowedHosts hosts(any);
    EXPECT_TRUE(hosts.allows(std::string("192.168.1.5:8080"))) << any;
    EXPECT_TRUE(hosts.allows(std::string("[fe80::1]"))) << any;
    EXPECT_FALSE(hosts.allows(std::string("evil.example"))) << any;
  }
}

}  // namespace
}  // namespace bookforge::serve
