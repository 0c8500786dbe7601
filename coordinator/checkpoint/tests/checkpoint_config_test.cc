// CheckpointConfigFrom: Flink's keys and defaults, and errors naming the key.
#include "coordinator/checkpoint/checkpoint_config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace eddy {
namespace {

using ::testing::HasSubstr;

TEST(CheckpointConfigTest, DefaultsAreFlinks) {
  auto c = CheckpointConfigFrom({}, "/var/lib/eddy/checkpoints");
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->enabled());
  EXPECT_TRUE(c->exactly_once);
  EXPECT_EQ(c->timeout, std::chrono::minutes(10));
  EXPECT_EQ(c->min_pause.count(), 0);
  EXPECT_EQ(c->max_concurrent, 1);
  EXPECT_EQ(c->tolerable_failures, 0);
  EXPECT_EQ(c->num_retained, 1);
  EXPECT_EQ(c->dir, "/var/lib/eddy/checkpoints");
}

TEST(CheckpointConfigTest, ReadsEveryKey) {
  auto c = CheckpointConfigFrom({{"execution.checkpointing.interval", "10 s"},
                                 {"execution.checkpointing.mode", "at_least_once"},
                                 {"execution.checkpointing.timeout", "1 min"},
                                 {"execution.checkpointing.min-pause", "500 ms"},
                                 {"execution.checkpointing.max-concurrent-checkpoints", "2"},
                                 {"execution.checkpointing.tolerable-failed-checkpoints", "3"},
                                 {"state.checkpoints.dir", "file:///mnt/ckpt"},
                                 {"state.checkpoints.num-retained", "4"}},
                                "");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->interval, std::chrono::seconds(10));
  EXPECT_FALSE(c->exactly_once);
  EXPECT_EQ(c->timeout, std::chrono::minutes(1));
  EXPECT_EQ(c->min_pause, std::chrono::milliseconds(500));
  EXPECT_EQ(c->max_concurrent, 2);
  EXPECT_EQ(c->tolerable_failures, 3);
  EXPECT_EQ(c->dir, "/mnt/ckpt");
  EXPECT_EQ(c->num_retained, 4);
}

TEST(CheckpointConfigTest, BadValuesNameTheKey) {
  EXPECT_THAT(
      CheckpointConfigFrom({{"execution.checkpointing.mode", "twice"}}, "/x").status().message(),
      HasSubstr("'execution.checkpointing.mode'"));
  EXPECT_THAT(
      CheckpointConfigFrom({{"state.checkpoints.dir", "s3://bucket/x"}}, "/x").status().message(),
      HasSubstr("a local or mounted path"));
  EXPECT_THAT(
      CheckpointConfigFrom({{"state.checkpoints.num-retained", "0"}}, "/x").status().message(),
      HasSubstr("an integer >= 1"));
  EXPECT_THAT(
      CheckpointConfigFrom({{"execution.checkpointing.interval", "1 s"}}, "").status().message(),
      HasSubstr("no checkpoint directory is set"));
}

}  // namespace
}  // namespace eddy
