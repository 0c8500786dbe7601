#include "common/connectors/connector_config.h"

#include "gtest/gtest.h"

namespace eddy {
namespace {

ConnectorConfig Config(std::map<std::string, std::string> options) {
  return ConnectorConfig("kafka", "db.t", std::move(options));
}

TEST(ConnectorConfig, TypedReadsNameTheOptionAndTheTable) {
  ConnectorConfig c = Config({{"n", "12"},
                              {"neg", "-1"},
                              {"flag", "TRUE"},
                              {"d", "5 s"},
                              {"m", "2mb"},
                              {"e", "b"},
                              {"ch", "\\t"}});
  EXPECT_EQ(*c.Int("n", 0, 1), 12);
  EXPECT_EQ(c.Int("neg", 0, 0).status().message(),
            "option 'neg' of table 'db.t' expects a non-negative integer, got '-1'");
  EXPECT_EQ(c.Int("neg", 0, 1).status().message(),
            "option 'neg' of table 'db.t' expects a positive integer, got '-1'");
  EXPECT_EQ(*c.Int("absent", 7), 7);
  EXPECT_TRUE(*c.Bool("flag", false));
  EXPECT_EQ(*c.DurationMs("d", 0), 5000);
  EXPECT_EQ(*c.MemoryBytes("m", 0), 2 << 20);
  EXPECT_EQ(*c.Enum("e", {"a", "b"}, "a"), "b");
  EXPECT_EQ(c.Enum("n", {"a", "b"}, "a").status().message(),
            "option 'n' of table 'db.t' expects one of a, b, got '12'");
  EXPECT_EQ(*c.Character("ch", ','), '\t');
  EXPECT_EQ(c.Required("topic").status().message(),
            "table 'db.t' (connector 'kafka') needs option 'topic'");
}

TEST(ConnectorConfig, AnOptionNothingReadIsAnError) {
  ConnectorConfig c =
      Config({{"connector", "kafka"}, {"topic", "x"}, {"properties.a", "1"}, {"oops", "2"}});
  EXPECT_TRUE(c.Get("topic").has_value());
  EXPECT_EQ(c.WithPrefix("properties."), (std::map<std::string, std::string>{{"a", "1"}}));
  EXPECT_EQ(c.CheckAllRead().message(),
            "unsupported option 'oops' for connector 'kafka' of table 'db.t'");
  c.MarkRead("oops");
  EXPECT_TRUE(c.CheckAllRead().ok());
  EXPECT_FALSE(c.Has("connector"));  // the connector's own name is not one of its options
}

}  // namespace
}  // namespace eddy
