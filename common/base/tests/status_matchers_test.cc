// The status assertions of tests/util/status_matchers.h pass on OK and fail, with the message, on
// an error.
#include "tests/util/status_matchers.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <string>

namespace eddy {
namespace {

absl::StatusOr<std::string> Value(bool ok) {
  if (!ok) return absl::NotFoundError("no value here");
  return std::string("v");
}

TEST(StatusMatchersTest, PassOnOk) {
  ASSERT_OK(absl::OkStatus());
  EXPECT_OK(Value(true));
  ASSERT_OK_AND_ASSIGN(std::string v, Value(true));
  EXPECT_EQ(v, "v");
}

TEST(StatusMatchersTest, FailWithTheMessage) {
  EXPECT_NONFATAL_FAILURE(EXPECT_OK(Value(false)), "no value here");
  EXPECT_FATAL_FAILURE(ASSERT_OK(absl::InternalError("broken")), "broken");
  EXPECT_FATAL_FAILURE(
      {
        ASSERT_OK_AND_ASSIGN(std::string v, Value(false));
        (void)v;
      },
      "no value here");
}

}  // namespace
}  // namespace eddy
