// The partition committer of a partitioned filesystem sink (Flink's PartitionCommitter) on real
// directories: which writer subtasks reported which checkpoint (CommitReportTracker), which
// pending partitions each trigger finds due (PartitionCommitTrigger), and the committer operator
// fed by real writer subtasks reporting, committing a partition only once every writer has
// published its parts of it, keeping what is pending across a restore.
#include "worker/connectors/filesystem_partition_committer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "common/base/allowed_paths.h"
#include "common/connectors/partition_commit_info.h"
#include "tests/util/files.h"
#include "tests/util/status_matchers.h"
#include "worker/connectors/filesystem_commit_tracker.h"
#include "worker/connectors/filesystem_commit_trigger.h"
#include "worker/connectors/filesystem_sink.h"
#include "worker/connectors/tests/open_filesystem_sink.h"
#include "worker/operators/testing/collecting_output.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Optional;
using ::testing::StartsWith;

TEST(CommitReportTrackerTest, ACheckpointIsCompleteOnceEverySubtaskReportedIt) {
  CommitReportTracker tracker;
  ASSERT_OK_AND_ASSIGN(auto complete, tracker.Add(1, 0, 3));
  EXPECT_EQ(complete, std::nullopt);
  ASSERT_OK_AND_ASSIGN(complete, tracker.Add(1, 2, 3));
  EXPECT_EQ(complete, std::nullopt);
  ASSERT_OK_AND_ASSIGN(complete, tracker.Add(1, 2, 3));  // a repeated report counts once
  EXPECT_EQ(complete, std::nullopt);
  ASSERT_OK_AND_ASSIGN(complete, tracker.Add(1, 1, 3));
  EXPECT_THAT(complete, Optional(1));
}

TEST(CommitReportTrackerTest, ANewerCompleteCheckpointSupersedesOlderIncompleteOnes) {
  CommitReportTracker tracker;
  ASSERT_OK(tracker.Add(1, 0, 2).status());  // subtask 1's report of 1 is lost
  ASSERT_OK(tracker.Add(2, 0, 2).status());
  ASSERT_OK_AND_ASSIGN(auto complete, tracker.Add(2, 1, 2));
  EXPECT_THAT(complete, Optional(2));
  ASSERT_OK_AND_ASSIGN(complete, tracker.Add(1, 1, 2));  // 1 was forgotten with 2
  EXPECT_EQ(complete, std::nullopt);
}

TEST(CommitReportTrackerTest, AnEndedSubtaskHoldsBackNoCheckpointAndAllEndedIsTheEnd) {
  CommitReportTracker tracker;
  ASSERT_OK_AND_ASSIGN(auto complete, tracker.Add(kEndOfInputReport, 1, 2));
  EXPECT_EQ(complete, std::nullopt);
  ASSERT_OK_AND_ASSIGN(complete, tracker.Add(5, 0, 2));
  EXPECT_THAT(complete, Optional(5));
  ASSERT_OK_AND_ASSIGN(complete, tracker.Add(kEndOfInputReport, 0, 2));
  EXPECT_THAT(complete, Optional(kEndOfInputReport));
}

TEST(CommitReportTrackerTest, SurvivesEncodingAndRejectsBadReports) {
  CommitReportTracker tracker;
  ASSERT_OK(tracker.Add(kEndOfInputReport, 2, 3).status());
  ASSERT_OK(tracker.Add(7, 0, 3).status());
  ASSERT_OK_AND_ASSIGN(CommitReportTracker restored, CommitReportTracker::Decode(tracker.Encode()));
  ASSERT_OK_AND_ASSIGN(auto complete, restored.Add(7, 1, 3));
  EXPECT_THAT(complete, Optional(7));
  EXPECT_FALSE(restored.Add(8, 3, 3).ok());
  EXPECT_FALSE(CommitReportTracker::Decode("7 a,b").ok());
}

TEST(CommitReportTrackerTest, ANewNumberOfSubtasksStartsAfresh) {
  CommitReportTracker tracker;
  ASSERT_OK(tracker.Add(3, 0, 2).status());
  ASSERT_OK_AND_ASSIGN(auto complete, tracker.Add(4, 0, 1));  // restored at parallelism 1
  EXPECT_THAT(complete, Optional(4));
}

TEST(PartitionCommitTriggerTest, ProcessTimeCommitsWhatWasFirstReportedMoreThanTheDelayAgo) {
  PartitionCommitTrigger trigger(FilesystemOptions::CommitTrigger::kProcessTime, 1000,
                                 std::nullopt);
  trigger.AddPartition("d=a", 5000);
  trigger.AddPartition("d=b", 4000);
  trigger.AddPartition("d=b", 4500);  // reported again: its first report counts
  ASSERT_OK_AND_ASSIGN(auto due, trigger.TakeCommittable(kMinWatermark, 5000));
  EXPECT_THAT(due, IsEmpty());  // due strictly after 4000 + 1000
  ASSERT_OK_AND_ASSIGN(due, trigger.TakeCommittable(kMinWatermark, 5001));
  EXPECT_THAT(due, ElementsAre("d=b"));
  PartitionCommitTrigger restored(FilesystemOptions::CommitTrigger::kProcessTime, 1000,
                                  std::nullopt);
  ASSERT_OK(restored.Decode(trigger.Encode()));
  ASSERT_OK_AND_ASSIGN(due, restored.TakeCommittable(kMinWatermark, 6000));
  EXPECT_THAT(due, IsEmpty());
  ASSERT_OK_AND_ASSIGN(due, restored.TakeCommittable(kMinWatermark, 6001));
  EXPECT_THAT(due, ElementsAre("d=a"));
  EXPECT_TRUE(restored.empty());
}

TEST(PartitionCommitTriggerTest, ProcessTimeWithoutADelayCommitsAtOnce) {
  PartitionCommitTrigger trigger(FilesystemOptions::CommitTrigger::kProcessTime, 0, std::nullopt);
  trigger.AddPartition("d=a", 5000);
  ASSERT_OK_AND_ASSIGN(auto due, trigger.TakeCommittable(kMinWatermark, 5000));
  EXPECT_THAT(due, ElementsAre("d=a"));
}

TEST(PartitionCommitTriggerTest, PartitionTimeCommitsWhatTheWatermarkPassedPlusTheDelay) {
  ASSERT_OK_AND_ASSIGN(PartitionTimeExtractor extractor,
                       PartitionTimeExtractor::Create("", "", "UTC", {"day"}));
  const int64_t jan1 = 1704067200000;  // 2024-01-01 00:00:00 UTC
  const int64_t hour = 3600 * 1000;
  PartitionCommitTrigger trigger(FilesystemOptions::CommitTrigger::kPartitionTime, hour,
                                 std::move(extractor));
  trigger.AddPartition("day=2024-01-01", 0);
  trigger.AddPartition("day=2024-01-02", 0);
  ASSERT_OK_AND_ASSIGN(auto due, trigger.TakeCommittable(jan1 + hour, 0));
  EXPECT_THAT(due, IsEmpty());
  ASSERT_OK_AND_ASSIGN(due, trigger.TakeCommittable(jan1 + hour + 1, 0));
  EXPECT_THAT(due, ElementsAre("day=2024-01-01"));
  EXPECT_THAT(trigger.TakeAll(), ElementsAre("day=2024-01-02"));
  trigger.AddPartition("day=soon", 0);
  EXPECT_FALSE(trigger.TakeCommittable(jan1 * 2, 0).ok());  // no time in its values
}

ChangelogBatch Rows(std::vector<std::string> days) {
  ChangelogBatch b({DataType::String(), DataType::BigInt()});
  for (size_t i = 0; i < days.size(); ++i) {
    b.AppendValues({Value::String(days[i]), Value::Int(static_cast<int64_t>(i))}, RowKind::kInsert);
  }
  return b;
}

// Two writer subtasks of one table (as the job graph deploys them with a committer: reporting)
// chained into one committer.
class PartitionCommitterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    root_ =
        (fs::temp_directory_path() / ("eddy-committer-" + std::to_string(getpid()) + "-" + name))
            .string();
    fs::remove_all(root_);
    fs::create_directories(root_);
    root_ = *CanonicalFilesystemPath(root_);
    dir_ = root_ + "/out";
    options_ = {
        {"path", dir_}, {"format", "csv"}, {"sink.partition-commit.policy.kind", "success-file"}};
  }
  void TearDown() override { fs::remove_all(root_); }

  std::unique_ptr<FilesystemPartitionCommitter> Committer(
      FilesystemPartitionCommitter::ProcessingClock clock = nullptr) {
    v1::PartitionCommitter spec;
    spec.set_table_name("t");
    for (const auto& [k, v] : options_) (*spec.mutable_options())[k] = v;
    spec.add_partition_columns("day");
    auto committer = FilesystemPartitionCommitter::Create(spec, {root_}, std::move(clock));
    EXPECT_TRUE(committer.ok()) << committer.status();
    if (!committer.ok()) return nullptr;
    EXPECT_OK((*committer)->Open(OperatorContext{}));
    return std::move(*committer);
  }

  std::unique_ptr<FilesystemSink> Writer(int subtask, bool checkpointing, int attempt = 0) {
    v1::TableSink spec;
    spec.set_table_name("t");
    spec.set_connector("filesystem");
    for (const auto& [k, v] : options_) (*spec.mutable_options())[k] = v;
    spec.add_partition_keys(0);
    spec.set_report_partition_commits(true);
    const Schema schema{{{"day", DataType::String()}, {"n", DataType::BigInt()}}};
    return OpenFilesystemSink(spec, schema, root_, subtask, attempt, checkpointing);
  }

  bool Committed(const std::string& partition) const {
    return fs::exists(dir_ + "/" + partition + "/_SUCCESS");
  }

  std::string root_, dir_;
  std::map<std::string, std::string> options_;
};

TEST_F(PartitionCommitterTest, APartitionCommitsOnlyOnceEveryWriterPublishedItsParts) {
  auto committer = Committer();
  testing::CollectingOutput reports(committer.get());
  auto w0 = Writer(0, true), w1 = Writer(1, true);
  w0->set_output(&reports);
  w1->set_output(&reports);
  ASSERT_OK(w0->Process(0, Rows({"a", "b"})));
  ASSERT_OK(w1->Process(0, Rows({"a"})));
  OperatorSnapshot s;
  ASSERT_OK(w0->SnapshotState(1, &s));
  ASSERT_OK(w1->SnapshotState(1, &s));
  ASSERT_OK(w0->NotifyCheckpointComplete(1));
  // w0 published its parts of a and b and reported them; w1's part of a is still pending.
  EXPECT_THAT(reports.Take(),
              ElementsAre(StartsWith("+I[1, 0, 2, day=a, "), StartsWith("+I[1, 0, 2, day=b, "),
                          "+I[1, 0, 2, null, -9223372036854775808]"));
  EXPECT_FALSE(Committed("day=a"));
  EXPECT_FALSE(Committed("day=b"));
  ASSERT_OK(w1->NotifyCheckpointComplete(1));
  EXPECT_TRUE(Committed("day=a"));
  EXPECT_TRUE(Committed("day=b"));
  EXPECT_EQ(testing::ListDirectory(dir_ + "/day=a"),
            (std::vector<std::string>{"_SUCCESS", "part-j-0-0.csv", "part-j-1-0.csv"}));
  EXPECT_EQ(committer->partitions_committed(), 2);
}

TEST_F(PartitionCommitterTest, AnEndedWriterHoldsBackNothingAndTheEndCommitsEverything) {
  options_["sink.partition-commit.delay"] = "1 h";
  auto committer = Committer();
  testing::CollectingOutput reports(committer.get());
  auto w0 = Writer(0, true), w1 = Writer(1, true);
  w0->set_output(&reports);
  w1->set_output(&reports);
  ASSERT_OK(w0->Finish());  // no rows: nothing to publish, it ends at once
  EXPECT_FALSE(w0->HasUncommittedOutput());
  EXPECT_THAT(reports.Take(), ElementsAre(StartsWith("+I[9223372036854775807, 0, 2, null")));
  ASSERT_OK(w1->Process(0, Rows({"a"})));
  ASSERT_OK(w1->Finish());
  EXPECT_TRUE(w1->HasUncommittedOutput());  // its last part waits for a checkpoint
  OperatorSnapshot s;
  ASSERT_OK(w1->SnapshotState(1, &s));
  EXPECT_FALSE(Committed("day=a"));
  ASSERT_OK(w1->NotifyCheckpointComplete(1));
  EXPECT_FALSE(w1->HasUncommittedOutput());
  // Reported at checkpoint 1 (not due for an hour), then its end: every writer ended.
  EXPECT_TRUE(Committed("day=a"));
}

TEST_F(PartitionCommitterTest, PendingPartitionsAndPartialReportsSurviveARestore) {
  options_["sink.partition-commit.delay"] = "1 h";
  OperatorSnapshot c1, w0s, w1s;
  {
    auto committer = Committer();
    testing::CollectingOutput reports(committer.get());
    auto w0 = Writer(0, true), w1 = Writer(1, true);
    w0->set_output(&reports);
    w1->set_output(&reports);
    ASSERT_OK(w0->Process(0, Rows({"a"})));
    ASSERT_OK(w1->Process(0, Rows({"b"})));
    OperatorSnapshot s;
    ASSERT_OK(w0->SnapshotState(1, &s));
    ASSERT_OK(w1->SnapshotState(1, &s));
    ASSERT_OK(committer->SnapshotState(1, &s));
    ASSERT_OK(w0->NotifyCheckpointComplete(1));
    ASSERT_OK(w1->NotifyCheckpointComplete(1));  // both reported: pending for an hour
    ASSERT_OK(w0->Process(0, Rows({"c"})));
    ASSERT_OK(w0->SnapshotState(2, &w0s));
    ASSERT_OK(w1->SnapshotState(2, &w1s));
    ASSERT_OK(committer->SnapshotState(2, &c1));
    ASSERT_OK(w0->NotifyCheckpointComplete(2));  // w0 reports c; then everything fails
    ASSERT_OK(w0->Close());
    ASSERT_OK(w1->Close());
  }
  EXPECT_FALSE(Committed("day=a"));
  // Restored from checkpoint 2: the committer still holds a and b; w0 publishes c again and,
  // since checkpoint 2's report of it may never have arrived, reports it with the next one.
  auto committer = Committer();
  ASSERT_OK(committer->RestoreState(c1));
  testing::CollectingOutput reports(committer.get());
  auto w0 = Writer(0, true, 1), w1 = Writer(1, true, 1);
  w0->set_output(&reports);
  w1->set_output(&reports);
  ASSERT_OK(w0->RestoreState(w0s));
  ASSERT_OK(w1->RestoreState(w1s));
  OperatorSnapshot s;
  ASSERT_OK(w0->SnapshotState(3, &s));
  ASSERT_OK(w1->SnapshotState(3, &s));
  ASSERT_OK(w0->NotifyCheckpointComplete(3));
  ASSERT_OK(w1->NotifyCheckpointComplete(3));
  EXPECT_THAT(reports.Take(), ::testing::Contains(StartsWith("+I[3, 0, 2, day=c, ")));
  EXPECT_FALSE(Committed("day=a"));  // still within the hour
  ASSERT_OK(w0->Finish());
  ASSERT_OK(w1->Finish());
  EXPECT_TRUE(Committed("day=a"));
  EXPECT_TRUE(Committed("day=b"));
  EXPECT_TRUE(Committed("day=c"));
}

// 'process-time' times a partition by the committer's own clock from the report that first named
// it, never by a writer's clock (a writer's host may run hours ahead or behind).
TEST_F(PartitionCommitterTest, ProcessTimeCountsTheDelayOnTheCommittersOwnClock) {
  options_["sink.partition-commit.delay"] = "10 s";
  int64_t now = 1'000'000;
  auto committer = Committer([&now] { return now; });
  testing::CollectingOutput reports(committer.get());
  auto w0 = Writer(0, true), w1 = Writer(1, true);
  w0->set_output(&reports);
  w1->set_output(&reports);
  // Checkpoint 1 publishes a part of day=a; the committer learns of it at its time 1'000'000.
  ASSERT_OK(w0->Process(0, Rows({"a"})));
  OperatorSnapshot s;
  auto checkpoint = [&](int64_t id) {
    ASSERT_OK(w0->SnapshotState(id, &s));
    ASSERT_OK(w1->SnapshotState(id, &s));
    ASSERT_OK(w0->NotifyCheckpointComplete(id));
    ASSERT_OK(w1->NotifyCheckpointComplete(id));
  };
  checkpoint(1);
  EXPECT_FALSE(Committed("day=a"));
  // The writers' clocks play no part: later reports of day=a keep its first time.
  now += 5'000;
  ASSERT_OK(w1->Process(0, Rows({"a"})));
  checkpoint(2);
  EXPECT_FALSE(Committed("day=a"));
  now = 1'010'000;  // exactly the delay: not yet (Flink commits strictly after it)
  checkpoint(3);
  EXPECT_FALSE(Committed("day=a"));
  now = 1'010'001;
  checkpoint(4);
  EXPECT_TRUE(Committed("day=a"));
  EXPECT_EQ(committer->partitions_committed(), 1);
  // A new part after the commit starts the delay again from its first report.
  ASSERT_OK(w0->Process(0, Rows({"a"})));
  checkpoint(5);
  now += 10'000;
  checkpoint(6);
  EXPECT_EQ(committer->partitions_committed(), 1);
  now += 1;
  checkpoint(7);
  EXPECT_EQ(committer->partitions_committed(), 2);
}

// A job stopped with a savepoint ends the committer without Finish: pending partitions within
// their delay stay pending for a restore, unless the savepoint drained event time to its end
// (STOP JOB ... WITH DRAIN, whose end-of-time watermark every writer reported), as Flink's drain
// ends every input and commits them all.
TEST_F(PartitionCommitterTest, AtTheStopOnlyADrainCommitsWhatIsStillWithinItsDelay) {
  options_["sink.partition-commit.delay"] = "1 h";
  for (const bool drain : {false, true}) {
    SCOPED_TRACE(drain ? "drain" : "no drain");
    fs::remove_all(dir_);
    auto committer = Committer();
    testing::CollectingOutput reports(committer.get());
    auto w0 = Writer(0, true), w1 = Writer(1, true);
    w0->set_output(&reports);
    w1->set_output(&reports);
    ASSERT_OK(w0->Process(0, Rows({"a"})));
    ASSERT_OK(w1->Process(0, Rows({"b"})));
    if (drain) {
      ASSERT_OK(w0->ProcessWatermark(Watermark{kMaxWatermark}));
      ASSERT_OK(w1->ProcessWatermark(Watermark{kMaxWatermark}));
    }
    OperatorSnapshot s;
    ASSERT_OK(w0->SnapshotState(1, &s));
    ASSERT_OK(w1->SnapshotState(1, &s));
    ASSERT_OK(w0->NotifyCheckpointComplete(1));
    ASSERT_OK(w1->NotifyCheckpointComplete(1));
    EXPECT_FALSE(Committed("day=a"));  // within the hour
    ASSERT_OK(committer->EndAtStop());
    EXPECT_EQ(Committed("day=a"), drain);
    EXPECT_EQ(Committed("day=b"), drain);
  }
}

TEST_F(PartitionCommitterTest, PartitionTimeTakesTheSmallestWatermarkTheWritersReported) {
  options_["sink.partition-commit.trigger"] = "partition-time";
  auto committer = Committer();
  testing::CollectingOutput reports(committer.get());
  auto w0 = Writer(0, true), w1 = Writer(1, true);
  w0->set_output(&reports);
  w1->set_output(&reports);
  const int64_t jan2 = 1704153600000;  // 2024-01-02 00:00:00 UTC
  ASSERT_OK(w0->Process(0, Rows({"2024-01-02"})));
  ASSERT_OK(w0->ProcessWatermark(Watermark{jan2 + 1}));
  ASSERT_OK(w1->ProcessWatermark(Watermark{jan2 - 1}));  // w1 is behind
  OperatorSnapshot s;
  ASSERT_OK(w0->SnapshotState(1, &s));
  ASSERT_OK(w1->SnapshotState(1, &s));
  ASSERT_OK(w0->NotifyCheckpointComplete(1));
  ASSERT_OK(w1->NotifyCheckpointComplete(1));
  // w1 may still write rows of 2024-01-02: the partition waits.
  EXPECT_FALSE(Committed("day=2024-01-02"));
  ASSERT_OK(w1->ProcessWatermark(Watermark{jan2 + 5}));
  ASSERT_OK(w0->SnapshotState(2, &s));
  ASSERT_OK(w1->SnapshotState(2, &s));
  ASSERT_OK(w0->NotifyCheckpointComplete(2));
  EXPECT_FALSE(Committed("day=2024-01-02"));
  ASSERT_OK(w1->NotifyCheckpointComplete(2));
  EXPECT_TRUE(Committed("day=2024-01-02"));
}

TEST_F(PartitionCommitterTest, WithoutCheckpointsTheEndOfTheInputCommits) {
  options_["sink.partition-commit.delay"] = "1 h";
  auto committer = Committer();
  testing::CollectingOutput reports(committer.get());
  auto w0 = Writer(0, false), w1 = Writer(1, false);
  w0->set_output(&reports);
  w1->set_output(&reports);
  ASSERT_OK(w0->Process(0, Rows({"a"})));
  ASSERT_OK(w1->Process(0, Rows({"a"})));
  ASSERT_OK(w0->Finish());
  EXPECT_FALSE(Committed("day=a"));  // w1's part is not published yet
  ASSERT_OK(w1->Finish());
  EXPECT_TRUE(Committed("day=a"));
  EXPECT_EQ(testing::ListDirectory(dir_ + "/day=a"),
            (std::vector<std::string>{"_SUCCESS", "part-j-0-0.csv", "part-j-1-0.csv"}));
}

TEST_F(PartitionCommitterTest, AReportOfAPartitionOutsideTheTableIsAnError) {
  auto committer = Committer();
  ChangelogBatch report(PartitionCommitInfoSchema().Types());
  PartitionCommitInfoWriter writer(1, 0, 1, &report);
  writer.AddPartition("../escape");
  writer.Close(kMinWatermark);
  EXPECT_THAT(committer->Process(0, report).message(),
              ::testing::HasSubstr("reported a partition '../escape'"));
}

}  // namespace
}  // namespace eddy
