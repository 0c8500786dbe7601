#include <gtest/gtest.h>

#include "common/base/hash.h"
#include "common/base/status_macros.h"

namespace eddy {
namespace {

absl::StatusOr<int> Half(int x) {
  if (x % 2 != 0) return absl::InvalidArgumentError("odd");
  return x / 2;
}

absl::StatusOr<int> Quarter(int x) {
  ASSIGN_OR_RETURN(int h, Half(x));
  ASSIGN_OR_RETURN(int q, Half(h));
  return q;
}

absl::Status CheckEven(int x) {
  RETURN_IF_ERROR(Half(x).status());
  return absl::OkStatus();
}

TEST(StatusMacros, PropagatesErrorsAndValues) {
  EXPECT_EQ(*Quarter(8), 2);
  EXPECT_EQ(Quarter(6).status().message(), "odd");
  EXPECT_TRUE(CheckEven(4).ok());
  EXPECT_FALSE(CheckEven(5).ok());
}

TEST(Hash, StableAcrossCallsAndSpreadsKeyGroups) {
  EXPECT_EQ(StableHash("abc"), StableHash("abc"));
  EXPECT_NE(StableHash("abc"), StableHash("abd"));
  int counts[128] = {};
  for (int i = 0; i < 12800; ++i) counts[KeyGroupOf(std::to_string(i), 128)]++;
  for (int c : counts) EXPECT_GT(c, 40);
  EXPECT_EQ(SubtaskOfKeyGroup(0, 4, 128), 0);
  EXPECT_EQ(SubtaskOfKeyGroup(127, 4, 128), 3);
  EXPECT_EQ(SubtaskOfKeyGroup(64, 2, 128), 1);
}

}  // namespace
}  // namespace eddy
