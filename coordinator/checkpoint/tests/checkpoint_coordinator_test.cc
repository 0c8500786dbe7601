// CheckpointCoordinator on a manual clock: triggering by interval, min-pause and max-concurrent;
// completion only when every subtask acknowledged, with metadata on disk and older pending
// checkpoints subsumed; timeouts, declines, missing files and the tolerable-failure threshold.
#include "coordinator/checkpoint/checkpoint_coordinator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/util/status_matchers.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Clock = CheckpointCoordinator::Clock;
using std::chrono::milliseconds;
using std::chrono::seconds;

class CheckpointCoordinatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("eddy-ckpt-coord-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    store_ = std::make_unique<CheckpointStore>(dir_.string());
    ASSERT_OK(store_->Prepare());
    config_.interval = seconds(1);
    config_.dir = dir_.parent_path().string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Create(int64_t last_id = 0) {
    CheckpointCoordinator::Callbacks cb;
    cb.trigger = [this](int64_t id, int64_t) {
      triggered_.push_back(id);
      return trigger_status_;
    };
    cb.notify_complete = [this](int64_t id) { completed_.push_back(id); };
    cb.notify_aborted = [this](int64_t id, const std::string& why) {
      aborted_.push_back(id);
      reasons_.push_back(why);
    };
    cb.fail_job = [this](const std::string& m) { failure_ = m; };
    cb.wall_clock_ms = [] { return int64_t{1000}; };
    if (initial_delay_) cb.initial_delay = [this] { return *initial_delay_; };
    coordinator_ = std::make_unique<CheckpointCoordinator>(
        "job", 1, config_, std::set<CheckpointCoordinator::SubtaskId>{{0, 0}, {0, 1}, {1, 0}},
        store_.get(), cb, last_id);
  }
  // A subtask's acknowledgement whose keyed state is `file` (written first, as a worker does).
  v1::SubtaskStateHandle State(int task, int subtask, const std::string& file = "") {
    v1::SubtaskStateHandle s;
    s.set_task_index(task);
    s.set_subtask_index(subtask);
    auto* op = s.add_operators();
    op->set_state_id(3);
    if (!file.empty()) {
      fs::create_directories((dir_ / file).parent_path());
      std::ofstream(dir_ / file) << "sst";
      auto* f = op->add_files();
      f->set_path(file);
      f->set_size(3);
    }
    return s;
  }
  void AckAll(int64_t id, Clock::time_point now) {
    ASSERT_OK(coordinator_->Acknowledge(id, State(0, 0, "shared/a/1.sst"), now));
    ASSERT_OK(coordinator_->Acknowledge(id, State(0, 1), now));
    ASSERT_OK(coordinator_->Acknowledge(id, State(1, 0, "shared/b/1.sst"), now));
  }

  fs::path dir_;
  std::unique_ptr<CheckpointStore> store_;
  CheckpointConfig config_;
  std::unique_ptr<CheckpointCoordinator> coordinator_;
  absl::Status trigger_status_;
  std::vector<int64_t> triggered_, completed_, aborted_;
  std::vector<std::string> reasons_;
  std::string failure_;
  std::optional<milliseconds> initial_delay_;
  const Clock::time_point t0_ = Clock::now();
};

TEST_F(CheckpointCoordinatorTest, TheFirstCheckpointWaitsForTheInitialDelay) {
  initial_delay_ = milliseconds(700);
  Create();
  coordinator_->Tick(t0_);
  coordinator_->Tick(t0_ + milliseconds(699));
  EXPECT_TRUE(triggered_.empty());
  coordinator_->Tick(t0_ + milliseconds(700));
  ASSERT_THAT(triggered_, ElementsAre(1));
  AckAll(1, t0_ + milliseconds(750));
  coordinator_->Tick(t0_ + milliseconds(1699));  // then every interval after the last trigger
  EXPECT_THAT(triggered_, ElementsAre(1));
  coordinator_->Tick(t0_ + milliseconds(1700));
  EXPECT_THAT(triggered_, ElementsAre(1, 2));
}

TEST_F(CheckpointCoordinatorTest, CountsTheBytesAnIncrementalCheckpointAdded) {
  Create();
  coordinator_->Tick(t0_);
  AckAll(1, t0_ + milliseconds(30));
  EXPECT_EQ(coordinator_->stats().latest_size_bytes, 6u);
  EXPECT_EQ(coordinator_->stats().latest_new_bytes, 6u);  // the first: everything is new
  EXPECT_EQ(coordinator_->stats().latest_duration, milliseconds(30));
  coordinator_->Tick(t0_ + seconds(1));
  // Subtask (0, 0) references its old file and a new one; (1, 0) its old one only.
  v1::SubtaskStateHandle both = State(0, 0, "shared/a/2.sst");
  both.mutable_operators(0)->add_files()->set_path("shared/a/1.sst");
  both.mutable_operators(0)->mutable_files(1)->set_size(3);
  ASSERT_OK(coordinator_->Acknowledge(2, both, t0_ + seconds(1)));
  ASSERT_OK(coordinator_->Acknowledge(2, State(0, 1), t0_ + seconds(1)));
  ASSERT_OK(coordinator_->Acknowledge(2, State(1, 0, "shared/b/1.sst"), t0_ + seconds(1)));
  EXPECT_EQ(coordinator_->stats().latest_size_bytes, 9u);
  EXPECT_EQ(coordinator_->stats().latest_new_bytes, 3u);
}

TEST_F(CheckpointCoordinatorTest, CompletesWhenEverySubtaskAcknowledged) {
  Create();
  coordinator_->Tick(t0_);
  ASSERT_THAT(triggered_, ElementsAre(1));
  coordinator_->Tick(t0_ + milliseconds(500));  // one at a time
  EXPECT_THAT(triggered_, ElementsAre(1));
  ASSERT_OK(coordinator_->Acknowledge(1, State(0, 0, "shared/a/1.sst"), t0_));
  ASSERT_OK(coordinator_->Acknowledge(1, State(0, 1), t0_));
  EXPECT_TRUE(completed_.empty());
  EXPECT_THAT(store_->CompletedIds(), ::testing::IsEmpty());
  ASSERT_OK(coordinator_->Acknowledge(1, State(1, 0), t0_ + milliseconds(200)));
  EXPECT_THAT(completed_, ElementsAre(1));
  ASSERT_OK_AND_ASSIGN(v1::CheckpointMetadata metadata, store_->ReadMetadata(1));
  EXPECT_EQ(metadata.subtasks_size(), 3);
  EXPECT_EQ(metadata.attempt(), 1);
  auto stats = coordinator_->stats();
  EXPECT_EQ(stats.completed, 1);
  EXPECT_EQ(stats.latest_duration, milliseconds(200));
  EXPECT_EQ(stats.latest_size_bytes, 3u);
  // The next one waits for the interval.
  coordinator_->Tick(t0_ + milliseconds(900));
  EXPECT_THAT(triggered_, ElementsAre(1));
  coordinator_->Tick(t0_ + milliseconds(1000));
  EXPECT_THAT(triggered_, ElementsAre(1, 2));
}

TEST_F(CheckpointCoordinatorTest, IdsContinueAfterARestoredCheckpoint) {
  Create(/*last_id=*/41);
  coordinator_->Tick(t0_);
  EXPECT_THAT(triggered_, ElementsAre(42));
}

TEST_F(CheckpointCoordinatorTest, MinPauseSeparatesTheEndOfOneFromTheNext) {
  config_.min_pause = seconds(5);
  Create();
  coordinator_->Tick(t0_);
  AckAll(1, t0_ + seconds(2));
  coordinator_->Tick(t0_ + seconds(6));
  EXPECT_THAT(triggered_, ElementsAre(1));
  coordinator_->Tick(t0_ + seconds(7));
  EXPECT_THAT(triggered_, ElementsAre(1, 2));
}

TEST_F(CheckpointCoordinatorTest, ANewerCompletedCheckpointSubsumesOlderPendingOnes) {
  config_.max_concurrent = 2;
  Create();
  coordinator_->Tick(t0_);
  coordinator_->Tick(t0_ + seconds(1));
  ASSERT_THAT(triggered_, ElementsAre(1, 2));
  ASSERT_OK(coordinator_->Acknowledge(1, State(0, 0, "shared/a/old.sst"), t0_));
  AckAll(2, t0_ + seconds(1));
  EXPECT_THAT(completed_, ElementsAre(2));
  EXPECT_THAT(aborted_, ElementsAre(1));
  EXPECT_FALSE(fs::exists(dir_ / "shared/a/old.sst"));  // written only for the subsumed one
  EXPECT_EQ(coordinator_->stats().failed, 0);
  EXPECT_TRUE(coordinator_->Acknowledge(1, State(0, 1), t0_).ok());  // late: ignored
}

TEST_F(CheckpointCoordinatorTest, TimeoutsAndDeclinesFailTheJobBeyondTheTolerance) {
  config_.timeout = seconds(10);
  config_.tolerable_failures = 1;
  Create();
  coordinator_->Tick(t0_);
  coordinator_->Tick(t0_ + seconds(10));
  EXPECT_THAT(aborted_, ElementsAre(1));
  EXPECT_EQ(reasons_[0], "Checkpoint expired before completing.");
  EXPECT_TRUE(failure_.empty());  // one failure is tolerated
  coordinator_->Tick(t0_ + seconds(11));
  ASSERT_THAT(triggered_, ElementsAre(1, 2));
  coordinator_->Decline(2, {1, 0}, "the sink is blocked", false, t0_ + seconds(12));
  EXPECT_THAT(failure_, HasSubstr("Exceeded checkpoint tolerable failure threshold (1)"));
  EXPECT_THAT(failure_, HasSubstr("Declined by task 1 subtask 0: the sink is blocked"));
  coordinator_->Tick(t0_ + seconds(20));
  EXPECT_THAT(triggered_, ElementsAre(1, 2));  // stopped
}

TEST_F(CheckpointCoordinatorTest, ACompletedCheckpointResetsTheFailureCount) {
  config_.timeout = seconds(10);
  config_.tolerable_failures = 1;
  Create();
  coordinator_->Tick(t0_);
  coordinator_->Tick(t0_ + seconds(10));  // 1 expired
  coordinator_->Tick(t0_ + seconds(11));  // 2
  AckAll(2, t0_ + seconds(12));
  coordinator_->Tick(t0_ + seconds(13));  // 3
  coordinator_->Tick(t0_ + seconds(23));  // 3 expired: one failure in a row again
  EXPECT_TRUE(failure_.empty()) << failure_;
}

TEST_F(CheckpointCoordinatorTest, MissingFilesOrAFailedTriggerAbortInsteadOfCompleting) {
  Create();
  coordinator_->Tick(t0_);
  v1::SubtaskStateHandle ghost = State(0, 0);
  auto* f = ghost.mutable_operators(0)->add_files();
  f->set_path("shared/a/gone.sst");
  ASSERT_OK(coordinator_->Acknowledge(1, ghost, t0_));
  ASSERT_OK(coordinator_->Acknowledge(1, State(0, 1), t0_));
  ASSERT_OK(coordinator_->Acknowledge(1, State(1, 0), t0_));
  EXPECT_TRUE(completed_.empty());
  ASSERT_THAT(aborted_, ElementsAre(1));
  EXPECT_THAT(reasons_[0], HasSubstr("missing files: shared/a/gone.sst"));
  EXPECT_THAT(store_->CompletedIds(), ::testing::IsEmpty());

  config_.tolerable_failures = 5;
  Create();
  trigger_status_ = absl::UnavailableError("worker gone");
  coordinator_->Tick(t0_ + seconds(5));
  EXPECT_THAT(reasons_.back(), HasSubstr("Trigger failed: worker gone"));
}

TEST_F(CheckpointCoordinatorTest, BadAcknowledgementsAreErrors) {
  Create();
  coordinator_->Tick(t0_);
  EXPECT_THAT(coordinator_->Acknowledge(1, State(7, 0), t0_).message(),
              HasSubstr("task 7 subtask 0 is not part of the job"));
  v1::SubtaskStateHandle escape = State(0, 0);
  escape.mutable_operators(0)->add_files()->set_path("../../etc/passwd");
  EXPECT_THAT(coordinator_->Acknowledge(1, escape, t0_).message(),
              HasSubstr("outside the job's checkpoint directory"));
  EXPECT_THAT(coordinator_->Acknowledge(9, State(0, 0), t0_).message(),
              HasSubstr("was never triggered"));
}

TEST_F(CheckpointCoordinatorTest, FinishedSubtasksAreNotWaitedFor) {
  Create();
  coordinator_->Tick(t0_);
  ASSERT_OK(coordinator_->Acknowledge(1, State(0, 0), t0_));
  ASSERT_OK(coordinator_->Acknowledge(1, State(0, 1), t0_));
  EXPECT_TRUE(completed_.empty());
  coordinator_->OnSubtaskFinished({1, 0}, t0_);  // it will never see barrier 1
  EXPECT_THAT(completed_, ElementsAre(1));
  auto metadata = store_->ReadMetadata(1);
  ASSERT_TRUE(metadata.ok());
  EXPECT_EQ(metadata->subtasks_size(), 2);
}

TEST_F(CheckpointCoordinatorTest, OffWithoutAnInterval) {
  config_.interval = milliseconds(0);
  Create();
  coordinator_->Tick(t0_ + seconds(100));
  EXPECT_TRUE(triggered_.empty());
}

}  // namespace
}  // namespace eddy
