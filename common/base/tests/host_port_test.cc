// WithDefaultPort: host[:port] addresses from command lines.
#include "common/base/host_port.h"

#include <gtest/gtest.h>

namespace eddy {
namespace {

TEST(WithDefaultPort, AddsTheDefaultPortOnlyWhenMissing) {
  EXPECT_EQ(*WithDefaultPort("127.0.0.1", 8081), "127.0.0.1:8081");
  EXPECT_EQ(*WithDefaultPort("coord-host:9000", 8081), "coord-host:9000");
  EXPECT_EQ(*WithDefaultPort("[::1]", 8081), "[::1]:8081");
  EXPECT_EQ(*WithDefaultPort("[::1]:7", 8081), "[::1]:7");
}

TEST(WithDefaultPort, RefusesWhatIsNotHostAndPort) {
  for (const char* bad : {"", ":8081", "host:", "host:0", "host:65536", "host:http", "::1", "[::1",
                          "[::1]x", "[]:80"}) {
    auto r = WithDefaultPort(bad, 8081);
    EXPECT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find(std::string("'") + bad + "'"), std::string::npos)
        << r.status().message();
  }
}

TEST(WithDefaultPorts, NormalizesEveryAddressOfAList) {
  EXPECT_EQ(*WithDefaultPorts("a,b:9000", 8081), "a:8081,b:9000");
  EXPECT_EQ(*WithDefaultPorts("127.0.0.1", 8081), "127.0.0.1:8081");
  auto r = WithDefaultPorts("a,,b", 8081);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("''"), std::string::npos) << r.status().message();
}

TEST(ChannelTarget, OneAddressIsKeptAndSeveralBecomeAResolvedList) {
  EXPECT_EQ(*ChannelTarget("coord-host:8081"), "coord-host:8081");
  EXPECT_EQ(*ChannelTarget("127.0.0.1:1,127.0.0.1:2"), "ipv4:127.0.0.1:1,127.0.0.1:2");
  EXPECT_EQ(*ChannelTarget("localhost:1,127.0.0.1:2"), "ipv4:127.0.0.1:1,127.0.0.1:2");
  EXPECT_EQ(*ChannelTarget("[::1]:1,[::1]:2"), "ipv6:[::1]:1,[::1]:2");
  auto mixed = ChannelTarget("[::1]:1,127.0.0.1:2");
  EXPECT_FALSE(mixed.ok());
  auto unknown = ChannelTarget("127.0.0.1:1,no-such-host.invalid:2");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("'no-such-host.invalid:2'"), std::string::npos)
      << unknown.status().message();
}

}  // namespace
}  // namespace eddy
