// Partition directory names: Flink's escaping (PartitionPathUtils) and its inverse, the
// `k1=v1/k2=v2` paths, the listing of partition directories and the typed values of their names.
#include "common/connectors/partition_path.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "gtest/gtest.h"

namespace eddy {
namespace {

TEST(PartitionPathTest, EscapesTheCharactersFlinkEscapes) {
  EXPECT_EQ(EscapePartitionName("2024-01-01"), "2024-01-01");
  EXPECT_EQ(EscapePartitionName("a b.c_d-e+f"), "a b.c_d-e+f");  // left as they are
  EXPECT_EQ(EscapePartitionName("a/b"), "a%2Fb");
  EXPECT_EQ(EscapePartitionName("k=v"), "k%3Dv");
  EXPECT_EQ(EscapePartitionName("10:00:00"), "10%3A00%3A00");
  EXPECT_EQ(EscapePartitionName("100%"), "100%25");
  EXPECT_EQ(EscapePartitionName("\"#'*?\\{[]^"), "%22%23%27%2A%3F%5C%7B%5B%5D%5E");
  EXPECT_EQ(EscapePartitionName("tab\there\x7f"), "tab%09here%7F");
  EXPECT_EQ(EscapePartitionName("\x01\x1f"), "%01%1F");
  EXPECT_EQ(EscapePartitionName("café"), "café");  // non-ASCII as it is
  EXPECT_EQ(EscapePartitionName(".."), "..");
}

TEST(PartitionPathTest, APartitionPathStaysInsideTheTable) {
  EXPECT_TRUE(IsPartitionPath("day=2024-01-01"));
  EXPECT_TRUE(IsPartitionPath("region=eu/day=2024-01-01"));
  EXPECT_TRUE(IsPartitionPath("k=%2F"));
  EXPECT_FALSE(IsPartitionPath(""));            // the table's own directory
  EXPECT_FALSE(IsPartitionPath("day"));         // no '='
  EXPECT_FALSE(IsPartitionPath("a=1//b=2"));    // an empty level
  EXPECT_FALSE(IsPartitionPath("a=1/"));        // an empty last level
  EXPECT_FALSE(IsPartitionPath("/a=1"));        // absolute
  EXPECT_FALSE(IsPartitionPath("a=1/../b=2"));  // leading out
  EXPECT_FALSE(IsPartitionPath(".staging=1"));  // hidden
}

TEST(PartitionPathTest, UnescapeIsTheInverse) {
  for (const std::string s :
       {"a/b=c", "100%", "x:y", "plain", "\"#'*?\\{[]^", "\x01", "café", "%", "%2", "%zz"}) {
    EXPECT_EQ(UnescapePartitionName(EscapePartitionName(s)), s) << s;
  }
  // A '%' without two hex digits stays, as in Flink.
  EXPECT_EQ(UnescapePartitionName("50%"), "50%");
  EXPECT_EQ(UnescapePartitionName("%g1x"), "%g1x");
  EXPECT_EQ(UnescapePartitionName("%2f"), "/");
}

TEST(PartitionPathTest, PathsJoinEscapedLevels) {
  const PartitionSpec spec = {{"region", "eu/west"}, {"day", "2024-01-01"}};
  EXPECT_EQ(PartitionPath(spec), "region=eu%2Fwest/day=2024-01-01");
  auto parsed = ParsePartitionPath("region=eu%2Fwest/day=2024-01-01");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(*parsed, spec);
  EXPECT_EQ(PartitionSpecText(spec), "{region=eu/west, day=2024-01-01}");
  // A value may contain '=' once escaped, and be empty.
  parsed = ParsePartitionPath("k=a%3Db/e=");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(*parsed, (PartitionSpec{{"k", "a=b"}, {"e", ""}}));
  auto bad = ParsePartitionPath("region=eu/nokey");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("'nokey'"), std::string::npos) << bad.status();
}

TEST(PartitionPathTest, ListsThePartitionDirectoriesOfTheKeys) {
  namespace fs = std::filesystem;
  const std::string dir = ::testing::TempDir() + "/partition_path_test_" + std::to_string(getpid());
  fs::remove_all(dir);
  for (const char* d :
       {"a=1/b=x", "a=1/b=y", "a=2/b=x", "a=2/.hidden", "a=3/c=x", "_tmp/b=x", "other"}) {
    fs::create_directories(dir + "/" + d);
  }
  std::ofstream(dir + "/a=4") << "a file, not a partition";
  auto listed = ListPartitionDirectories(dir, {"a", "b"});
  ASSERT_TRUE(listed.ok()) << listed.status();
  EXPECT_EQ(*listed, (std::vector<std::string>{"a=1/b=x", "a=1/b=y", "a=2/b=x"}));
  listed = ListPartitionDirectories(dir + "/missing", {"a"});
  ASSERT_TRUE(listed.ok());
  EXPECT_TRUE(listed->empty());
  fs::remove_all(dir);
}

TEST(PartitionPathTest, ValuesAreTypedByCastAndTheDefaultNameIsNull) {
  auto v = PartitionValue("day", "2024-01-31", DataType::Date(), kDefaultPartitionName);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(FormatValue(*v, DataType::Date()), "2024-01-31");
  v = PartitionValue("n", "42", DataType::Int(), kDefaultPartitionName);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->int_value(), 42);
  v = PartitionValue("n", kDefaultPartitionName, DataType::Int(), kDefaultPartitionName);
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->is_null());
  v = PartitionValue("n", "x1", DataType::Int(), kDefaultPartitionName);
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.status().message().find("partition value 'x1' of column 'n'"), std::string::npos)
      << v.status();

  Column texts(DataType::String());
  texts.AppendString("eu");
  texts.AppendString("");
  texts.AppendNull();
  EXPECT_EQ(PartitionValueText(texts, 0, kDefaultPartitionName), "eu");
  EXPECT_EQ(PartitionValueText(texts, 1, kDefaultPartitionName), kDefaultPartitionName);
  EXPECT_EQ(PartitionValueText(texts, 2, "none"), "none");
}

}  // namespace
}  // namespace eddy
