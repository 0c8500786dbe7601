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

}  // namespace
}  // namespace eddy
