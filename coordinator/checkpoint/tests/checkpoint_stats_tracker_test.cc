// CheckpointStatsTracker: a checkpoint's progress from trigger to completion or failure, the
// bounded history (newest first, in-progress checkpoints kept until they end) and the latest
// completed checkpoint; and what a CheckpointCoordinator reports into it.
#include "coordinator/checkpoint/checkpoint_stats_tracker.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "coordinator/checkpoint/checkpoint_coordinator.h"
#include "tests/util/status_matchers.h"

namespace eddy {
namespace {

using Status = CheckpointStats::Status;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<int64_t> Ids(const std::vector<CheckpointStats>& history) {
  std::vector<int64_t> ids;
  for (const CheckpointStats& s : history) ids.push_back(s.id);
  return ids;
}

TEST(CheckpointStatsTrackerTest, FollowsACheckpointFromTriggerToCompletion) {
  CheckpointStatsTracker tracker(10);
  tracker.ReportTriggered(4, 2, false, 1000, 3);
  tracker.ReportAcknowledged(4, 1010, 3, 1, 0);
  tracker.ReportAcknowledged(4, 1030, 3, 2, 2500000);
  std::vector<CheckpointStats> h = tracker.History();
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0].status, Status::kInProgress);
  EXPECT_EQ(h[0].num_acknowledged, 2);
  EXPECT_EQ(h[0].latest_ack_time_ms, 1030);
  EXPECT_EQ(tracker.InProgress(), 1);
  EXPECT_FALSE(tracker.LatestCompleted().has_value());

  tracker.ReportAcknowledged(4, 1020, 3, 3, 1000000);  // a shorter alignment, an earlier clock
  tracker.ReportCompleted(4, 1040, 600, 200);
  std::optional<CheckpointStats> latest = tracker.LatestCompleted();
  ASSERT_TRUE(latest.has_value());
  EXPECT_EQ(latest->id, 4);
  EXPECT_EQ(latest->status, Status::kCompleted);
  EXPECT_EQ(latest->attempt, 2);
  EXPECT_FALSE(latest->savepoint);
  EXPECT_EQ(latest->trigger_time_ms, 1000);
  EXPECT_EQ(latest->latest_ack_time_ms, 1030);
  EXPECT_EQ(latest->end_time_ms, 1040);
  EXPECT_EQ(latest->num_subtasks, 3);
  EXPECT_EQ(latest->num_acknowledged, 3);
  EXPECT_EQ(latest->max_alignment_ns, 2500000);  // the longest of its subtasks
  EXPECT_EQ(latest->state_size_bytes, 600u);
  EXPECT_EQ(latest->checkpointed_bytes, 200u);
  EXPECT_EQ(tracker.InProgress(), 0);
  EXPECT_STREQ(CheckpointStats::StatusName(latest->status), "COMPLETED");
}

TEST(CheckpointStatsTrackerTest, AFailedCheckpointKeepsItsReasonAndIsNotTheLatestCompleted) {
  CheckpointStatsTracker tracker(10);
  tracker.ReportTriggered(1, 1, false, 100, 2);
  tracker.ReportCompleted(1, 150, 10, 10);
  tracker.ReportTriggered(2, 1, true, 200, 2);
  tracker.ReportFailed(2, 260, "Declined by task 0 subtask 1: disk full");
  tracker.ReportCompleted(2, 270, 1, 1);  // too late: it failed
  std::vector<CheckpointStats> h = tracker.History();
  ASSERT_THAT(Ids(h), ElementsAre(2, 1));
  EXPECT_EQ(h[0].status, Status::kFailed);
  EXPECT_TRUE(h[0].savepoint);
  EXPECT_EQ(h[0].end_time_ms, 260);
  EXPECT_THAT(h[0].failure, HasSubstr("disk full"));
  EXPECT_EQ(tracker.LatestCompleted()->id, 1);
  EXPECT_STREQ(CheckpointStats::StatusName(h[0].status), "FAILED");
}

TEST(CheckpointStatsTrackerTest, KeepsTheMostRecentCheckpointsAndThoseStillInProgress) {
  CheckpointStatsTracker tracker(3);
  tracker.ReportTriggered(1, 1, false, 0, 1);  // stays in progress
  for (int64_t id = 2; id <= 6; ++id) {
    tracker.ReportTriggered(id, 1, false, id * 100, 1);
    tracker.ReportCompleted(id, id * 100 + 5, 1, 1);
  }
  EXPECT_THAT(Ids(tracker.History()), ElementsAre(6, 5, 4));
  EXPECT_EQ(tracker.InProgress(), 1);
  tracker.ReportCompleted(1, 700, 1, 1);  // it ended after all: not the latest
  EXPECT_EQ(tracker.LatestCompleted()->id, 6);

  CheckpointStatsTracker none(0);
  none.ReportTriggered(1, 1, false, 0, 1);
  none.ReportCompleted(1, 5, 1, 1);
  EXPECT_TRUE(none.History().empty());
  EXPECT_EQ(none.LatestCompleted()->end_time_ms, 5);
}

// What a CheckpointCoordinator reports: triggers, acknowledgements with their alignment,
// completion with sizes, and failures with their reason.
TEST(CheckpointStatsTrackerTest, ACheckpointCoordinatorReportsEveryCheckpointItTakes) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("eddy-ckpt-stats-" + std::to_string(getpid()));
  fs::remove_all(dir);
  CheckpointStore store(dir.string());
  ASSERT_OK(store.Prepare());
  CheckpointConfig config;
  config.interval = std::chrono::seconds(1);
  config.dir = dir.parent_path().string();
  config.tolerable_failures = 5;
  auto tracker = std::make_shared<CheckpointStatsTracker>(10);
  int64_t wall = 5000;
  CheckpointCoordinator::Callbacks cb;
  cb.wall_clock_ms = [&wall] { return wall; };
  CheckpointCoordinator coordinator("job", 2, config, {{0, 0}, {1, 0}}, &store, cb, 0, tracker);
  const auto t0 = CheckpointCoordinator::Clock::now();
  v1::SubtaskStateHandle a, b;
  a.set_task_index(0);
  b.set_task_index(1);
  fs::create_directories(dir / "shared/s");
  std::ofstream(dir / "shared/s/1.sst") << "12345";
  auto* file = b.add_operators()->add_files();
  file->set_path("shared/s/1.sst");
  file->set_size(5);

  coordinator.Tick(t0);
  wall = 5010;
  ASSERT_OK(coordinator.Acknowledge(1, a, t0 + std::chrono::milliseconds(10), 0));
  EXPECT_EQ(tracker->History()[0].num_acknowledged, 1);
  EXPECT_EQ(tracker->History()[0].num_subtasks, 2);
  wall = 5030;
  ASSERT_OK(coordinator.Acknowledge(1, b, t0 + std::chrono::milliseconds(30), 7000000));
  CheckpointStats done = tracker->History()[0];
  EXPECT_EQ(done.id, 1);
  EXPECT_EQ(done.status, Status::kCompleted);
  EXPECT_EQ(done.attempt, 2);
  EXPECT_EQ(done.trigger_time_ms, 5000);
  EXPECT_EQ(done.latest_ack_time_ms, 5030);
  EXPECT_EQ(done.end_time_ms, 5030);
  EXPECT_EQ(done.max_alignment_ns, 7000000);
  EXPECT_EQ(done.state_size_bytes, 5u);
  EXPECT_EQ(done.checkpointed_bytes, 5u);

  coordinator.Tick(t0 + std::chrono::seconds(1));
  coordinator.Decline(2, {1, 0}, "no room", false, t0 + std::chrono::milliseconds(1200));
  CheckpointStats failed = tracker->History()[0];
  EXPECT_EQ(failed.id, 2);
  EXPECT_EQ(failed.status, Status::kFailed);
  EXPECT_EQ(failed.end_time_ms, 5030 + 200);  // its trigger's wall clock plus 200 ms
  EXPECT_THAT(failed.failure, HasSubstr("Declined by task 1 subtask 0: no room"));
  EXPECT_EQ(tracker->LatestCompleted()->id, 1);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace eddy
