// The filesystem sink's part files on real directories: rolling by size and time, and the
// exactly-once protocol with checkpoints (pending at a snapshot, published when the checkpoint
// completes, a restore publishing what its checkpoint names and removing every other leftover).
#include "worker/connectors/filesystem_sink.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "common/base/allowed_paths.h"
#include "tests/util/files.h"
#include "tests/util/status_matchers.h"
#include "worker/connectors/tests/open_filesystem_sink.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;

ChangelogBatch Rows(int from, int to) {
  ChangelogBatch b({DataType::String(), DataType::BigInt()});
  for (int i = from; i < to; ++i) {
    b.AppendValues({Value::String("w" + std::to_string(i)), Value::Int(i)}, RowKind::kInsert);
  }
  return b;
}

std::string Csv(int from, int to) {
  std::string out;
  for (int i = from; i < to; ++i) out += "w" + std::to_string(i) + "," + std::to_string(i) + "\n";
  return out;
}

class FilesystemSinkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    root_ = (fs::temp_directory_path() / ("eddy-sink-" + std::to_string(getpid()) + "-" + name))
                .string();
    fs::remove_all(root_);
    fs::create_directories(root_);
    root_ = *CanonicalFilesystemPath(root_);
    dir_ = root_ + "/out";
  }
  void TearDown() override { fs::remove_all(root_); }

  std::unique_ptr<FilesystemSink> Open(bool checkpointing, int attempt = 0, int subtask = 0,
                                       std::map<std::string, std::string> options = {},
                                       bool partitioned = false) {
    v1::TableSink spec;
    spec.set_table_name("t");
    spec.set_connector("filesystem");
    (*spec.mutable_options())["path"] = dir_;
    (*spec.mutable_options())["format"] = "csv";
    for (const auto& [k, v] : options) (*spec.mutable_options())[k] = v;
    if (partitioned) spec.add_partition_keys(0);  // PARTITIONED BY (word)
    const Schema schema{{{"word", DataType::String()}, {"n", DataType::BigInt()}}};
    return OpenFilesystemSink(spec, schema, root_, subtask, attempt, checkpointing);
  }

  std::string root_, dir_;
};

TEST_F(FilesystemSinkTest, RollsBySizeAndPublishesEverythingAtTheEndWithoutCheckpoints) {
  auto sink = Open(false, 0, 0, {{"sink.rolling-policy.file-size", "100b"}});
  for (int i = 0; i < 50; i += 10) ASSERT_OK(sink->Process(0, Rows(i, i + 10)));
  // Each batch of 10 rows (~60 bytes) rolls once the part holds more than 100 bytes.
  EXPECT_EQ(testing::ListDirectory(dir_),
            (std::vector<std::string>{".part-j-0-0.csv.pending.0", ".part-j-0-1.csv.pending.0",
                                      ".part-j-0-2.csv.inprogress.0"}));
  ASSERT_OK(sink->Finish());
  ASSERT_OK(sink->Close());
  EXPECT_EQ(testing::ListDirectory(dir_),
            (std::vector<std::string>{"part-j-0-0.csv", "part-j-0-1.csv", "part-j-0-2.csv"}));
  EXPECT_EQ(testing::ReadFileToString(dir_ + "/part-j-0-0.csv") +
                testing::ReadFileToString(dir_ + "/part-j-0-1.csv") +
                testing::ReadFileToString(dir_ + "/part-j-0-2.csv"),
            Csv(0, 50));
  EXPECT_FALSE(sink->HasUncommittedOutput());
}

TEST_F(FilesystemSinkTest, FailedSubtaskWithoutCheckpointsRemovesItsParts) {
  auto sink = Open(false, 0, 0, {{"sink.rolling-policy.file-size", "100b"}});
  for (int i = 0; i < 30; i += 10) ASSERT_OK(sink->Process(0, Rows(i, i + 10)));
  EXPECT_EQ(testing::ListDirectory(dir_).size(), 2u);
  ASSERT_OK(sink->Close());  // no Finish: failed or cancelled
  EXPECT_TRUE(testing::ListDirectory(dir_).empty());
}

TEST_F(FilesystemSinkTest, RollsAfterTheRolloverInterval) {
  auto sink = Open(false, 0, 0,
                   {{"sink.rolling-policy.rollover-interval", "50 ms"},
                    {"sink.rolling-policy.check-interval", "1 ms"}});
  ASSERT_OK(sink->Process(0, Rows(0, 3)));
  const auto now = std::chrono::steady_clock::now();
  ASSERT_OK(sink->OnTick(now + std::chrono::milliseconds(10)));
  EXPECT_EQ(testing::ListDirectory(dir_),
            (std::vector<std::string>{".part-j-0-0.csv.inprogress.0"}));
  ASSERT_OK(sink->OnTick(now + std::chrono::milliseconds(60)));
  EXPECT_EQ(testing::ListDirectory(dir_), (std::vector<std::string>{".part-j-0-0.csv.pending.0"}));
  ASSERT_OK(sink->Process(0, Rows(3, 4)));
  ASSERT_OK(sink->Finish());
  EXPECT_EQ(testing::ReadFileToString(dir_ + "/part-j-0-0.csv"), Csv(0, 3));
  EXPECT_EQ(testing::ReadFileToString(dir_ + "/part-j-0-1.csv"), Csv(3, 4));
}

TEST_F(FilesystemSinkTest, PublishesAtCompletedCheckpointsOnly) {
  auto sink = Open(true);
  ASSERT_OK(sink->Process(0, Rows(0, 5)));
  OperatorSnapshot s1;
  ASSERT_OK(sink->SnapshotState(1, &s1));
  EXPECT_EQ(testing::ListDirectory(dir_), (std::vector<std::string>{".part-j-0-0.csv.pending.0"}));
  ASSERT_OK(sink->Process(0, Rows(5, 8)));
  OperatorSnapshot s2;
  ASSERT_OK(sink->SnapshotState(2, &s2));
  ASSERT_OK(sink->Process(0, Rows(8, 9)));
  // Checkpoint 1 completes: its part only.
  ASSERT_OK(sink->NotifyCheckpointComplete(1));
  EXPECT_EQ(testing::ListDirectory(dir_),
            (std::vector<std::string>{".part-j-0-1.csv.pending.0", ".part-j-0-2.csv.inprogress.0",
                                      "part-j-0-0.csv"}));
  EXPECT_EQ(testing::ReadFileToString(dir_ + "/part-j-0-0.csv"), Csv(0, 5));
  // The input ends: the last part waits for a checkpoint.
  ASSERT_OK(sink->Finish());
  EXPECT_TRUE(sink->HasUncommittedOutput());
  ASSERT_OK(sink->NotifyCheckpointComplete(2));
  EXPECT_TRUE(sink->HasUncommittedOutput());
  EXPECT_EQ(testing::ReadFileToString(dir_ + "/part-j-0-1.csv"), Csv(5, 8));
  OperatorSnapshot s3;
  ASSERT_OK(sink->SnapshotState(3, &s3));
  ASSERT_OK(sink->NotifyCheckpointComplete(3));
  EXPECT_FALSE(sink->HasUncommittedOutput());
  ASSERT_OK(sink->Close());
  EXPECT_EQ(testing::ListDirectory(dir_),
            (std::vector<std::string>{"part-j-0-0.csv", "part-j-0-1.csv", "part-j-0-2.csv"}));
  EXPECT_EQ(testing::ReadFileToString(dir_ + "/part-j-0-2.csv"), Csv(8, 9));
}

TEST_F(FilesystemSinkTest, AnAbortedCheckpointsPartsGoWithTheNextOne) {
  auto sink = Open(true);
  ASSERT_OK(sink->Process(0, Rows(0, 2)));
  OperatorSnapshot s1, s2;
  ASSERT_OK(sink->SnapshotState(1, &s1));  // checkpoint 1 is aborted: no notification
  ASSERT_OK(sink->Process(0, Rows(2, 4)));
  ASSERT_OK(sink->SnapshotState(2, &s2));
  EXPECT_EQ(s2.Get("pending").value(), ".part-j-0-0.csv.pending.0\n.part-j-0-1.csv.pending.0");
  ASSERT_OK(sink->NotifyCheckpointComplete(2));
  EXPECT_EQ(testing::ListDirectory(dir_),
            (std::vector<std::string>{"part-j-0-0.csv", "part-j-0-1.csv"}));
}

TEST_F(FilesystemSinkTest, RestorePublishesTheCheckpointsPartsAndRemovesTheRest) {
  OperatorSnapshot s1;
  {
    auto before = Open(true, /*attempt=*/0);
    ASSERT_OK(before->Process(0, Rows(0, 5)));
    ASSERT_OK(before->SnapshotState(1, &s1));  // completes, but the notification never arrives
    ASSERT_OK(before->Process(0, Rows(5, 7)));
    OperatorSnapshot s2;
    ASSERT_OK(before->SnapshotState(2, &s2));  // never completes
    ASSERT_OK(before->Process(0, Rows(7, 9)));
    ASSERT_OK(before->Close());  // the task failed: pending parts stay for the restore
  }
  // What a killed process leaves: an in-progress part. Another subtask's files are not touched.
  std::ofstream(dir_ + "/.part-j-0-2.csv.inprogress.0") << "w7,7\n";
  std::ofstream(dir_ + "/.part-j-1-0.csv.pending.0") << "other\n";
  EXPECT_EQ(
      testing::ListDirectory(dir_),
      (std::vector<std::string>{".part-j-0-0.csv.pending.0", ".part-j-0-1.csv.pending.0",
                                ".part-j-0-2.csv.inprogress.0", ".part-j-1-0.csv.pending.0"}));

  auto after = Open(true, /*attempt=*/1);
  ASSERT_OK(after->RestoreState(s1));
  EXPECT_EQ(testing::ListDirectory(dir_),
            (std::vector<std::string>{".part-j-1-0.csv.pending.0", "part-j-0-0.csv"}));
  // The replay continues with part 1.
  ASSERT_OK(after->Process(0, Rows(5, 9)));
  OperatorSnapshot s3;
  ASSERT_OK(after->SnapshotState(3, &s3));
  ASSERT_OK(after->NotifyCheckpointComplete(3));
  EXPECT_EQ(testing::ReadFileToString(dir_ + "/part-j-0-0.csv") +
                testing::ReadFileToString(dir_ + "/part-j-0-1.csv"),
            Csv(0, 9));

  // Restoring the same checkpoint again (a second failure) finds part 0 published already.
  auto again = Open(true, /*attempt=*/2);
  ASSERT_OK(again->RestoreState(s1));
  EXPECT_EQ(testing::ReadFileToString(dir_ + "/part-j-0-0.csv"), Csv(0, 5));
}

// Rows w0..w2 repeated: partitions word=w0, word=w1 and word=w2, each row's n in its partition.
ChangelogBatch PartitionedRows(int from, int to) {
  ChangelogBatch b({DataType::String(), DataType::BigInt()});
  for (int i = from; i < to; ++i) {
    b.AppendValues({Value::String("w" + std::to_string(i % 3)), Value::Int(i)}, RowKind::kInsert);
  }
  return b;
}

TEST_F(FilesystemSinkTest, APartitionedSinkWritesEachRowIntoItsPartitionWithoutItsValue) {
  auto sink = Open(false, 0, 0, {}, /*partitioned=*/true);
  ASSERT_OK(sink->Process(0, PartitionedRows(0, 7)));
  ASSERT_OK(sink->Finish());
  EXPECT_EQ(testing::ListDirectory(dir_),
            (std::vector<std::string>{"word=w0", "word=w1", "word=w2"}));
  // Part numbers in the order the partitions first occur.
  EXPECT_EQ(testing::ListDirectory(dir_ + "/word=w0"), std::vector<std::string>{"part-j-0-0.csv"});
  EXPECT_EQ(testing::ListDirectory(dir_ + "/word=w1"), std::vector<std::string>{"part-j-0-1.csv"});
  EXPECT_EQ(testing::ReadFileToString(dir_ + "/word=w0/part-j-0-0.csv"), "0\n3\n6\n");
  EXPECT_EQ(testing::ReadFileToString(dir_ + "/word=w2/part-j-0-2.csv"), "2\n5\n");
}

TEST_F(FilesystemSinkTest, APartitionedSinkPublishesAndCommitsPerPartitionAtCheckpoints) {
  auto sink = Open(true, 0, 0, {{"sink.partition-commit.policy.kind", "success-file"}},
                   /*partitioned=*/true);
  ASSERT_OK(sink->Process(0, PartitionedRows(0, 2)));  // w0, w1
  OperatorSnapshot s1;
  ASSERT_OK(sink->SnapshotState(1, &s1));
  EXPECT_EQ(testing::ListDirectory(dir_ + "/word=w0"),
            std::vector<std::string>{".part-j-0-0.csv.pending.0"});
  ASSERT_OK(sink->NotifyCheckpointComplete(1));
  // Published, and with the default delay of 0 committed at once.
  EXPECT_EQ(testing::ListDirectory(dir_ + "/word=w0"),
            (std::vector<std::string>{"_SUCCESS", "part-j-0-0.csv"}));
  EXPECT_EQ(testing::ListDirectory(dir_ + "/word=w1"),
            (std::vector<std::string>{"_SUCCESS", "part-j-0-1.csv"}));
  EXPECT_FALSE(sink->HasUncommittedOutput());
}

TEST_F(FilesystemSinkTest, APartitionCommitWaitsForItsDelayOrTheEndOfTheInput) {
  OperatorSnapshot s1;
  {
    auto sink = Open(true, 0, 0,
                     {{"sink.partition-commit.policy.kind", "success-file"},
                      {"sink.partition-commit.delay", "1 h"},
                      {"sink.partition-commit.success-file.name", "_DONE"}},
                     /*partitioned=*/true);
    ASSERT_OK(sink->Process(0, PartitionedRows(0, 1)));  // w0
    ASSERT_OK(sink->SnapshotState(1, &s1));
    ASSERT_OK(sink->NotifyCheckpointComplete(1));
    EXPECT_EQ(testing::ListDirectory(dir_ + "/word=w0"),
              std::vector<std::string>{"part-j-0-0.csv"});  // published, not committed
    EXPECT_TRUE(sink->HasUncommittedOutput());
    ASSERT_OK(sink->Close());  // fails before the end
  }
  // The restored subtask still owes the commit, and makes it when its input ends.
  auto after = Open(true, 1, 0,
                    {{"sink.partition-commit.policy.kind", "success-file"},
                     {"sink.partition-commit.delay", "1 h"},
                     {"sink.partition-commit.success-file.name", "_DONE"}},
                    /*partitioned=*/true);
  ASSERT_OK(after->RestoreState(s1));
  ASSERT_OK(after->Process(0, PartitionedRows(1, 2)));  // w1
  ASSERT_OK(after->Finish());
  EXPECT_TRUE(after->HasUncommittedOutput());
  OperatorSnapshot s2;
  ASSERT_OK(after->SnapshotState(2, &s2));
  ASSERT_OK(after->NotifyCheckpointComplete(2));
  EXPECT_EQ(testing::ListDirectory(dir_ + "/word=w0"),
            (std::vector<std::string>{"_DONE", "part-j-0-0.csv"}));
  EXPECT_EQ(testing::ListDirectory(dir_ + "/word=w1"),
            (std::vector<std::string>{"_DONE", "part-j-0-1.csv"}));
  EXPECT_FALSE(after->HasUncommittedOutput());
}

// Trigger 'partition-time': a partition commits once the watermark a completed checkpoint was
// taken at passes the partition's time (its first partition column, 'yyyy-MM-dd') plus the delay.
TEST_F(FilesystemSinkTest, APartitionTimeCommitWaitsForTheCheckpointsWatermark) {
  auto sink = Open(true, 0, 0,
                   {{"sink.partition-commit.policy.kind", "success-file"},
                    {"sink.partition-commit.trigger", "partition-time"},
                    {"sink.partition-commit.delay", "1 h"}},
                   /*partitioned=*/true);
  ChangelogBatch rows({DataType::String(), DataType::BigInt()});
  rows.AppendValues({Value::String("2024-01-01"), Value::Int(1)}, RowKind::kInsert);
  rows.AppendValues({Value::String("2024-01-02"), Value::Int(2)}, RowKind::kInsert);
  ASSERT_OK(sink->Process(0, rows));
  const int64_t jan1 = 1704067200000;  // 2024-01-01 00:00:00 UTC
  const int64_t hour = 3600 * 1000;
  ASSERT_OK(sink->ProcessWatermark(Watermark{jan1 + hour}));  // not past 01-01 + 1 h
  OperatorSnapshot s1, s2, s3;
  ASSERT_OK(sink->SnapshotState(1, &s1));
  ASSERT_OK(sink->NotifyCheckpointComplete(1));
  EXPECT_EQ(testing::ListDirectory(dir_ + "/word=2024-01-01"),
            std::vector<std::string>{"part-j-0-0.csv"});  // published, not committed
  ASSERT_OK(sink->ProcessWatermark(Watermark{jan1 + hour + 1}));
  ASSERT_OK(sink->SnapshotState(2, &s2));
  // A watermark that arrives after checkpoint 2 does not count for its commit.
  ASSERT_OK(sink->ProcessWatermark(Watermark{jan1 + 3 * 24 * hour}));
  ASSERT_OK(sink->NotifyCheckpointComplete(2));
  EXPECT_EQ(testing::ListDirectory(dir_ + "/word=2024-01-01"),
            (std::vector<std::string>{"_SUCCESS", "part-j-0-0.csv"}));
  EXPECT_EQ(testing::ListDirectory(dir_ + "/word=2024-01-02"),
            std::vector<std::string>{"part-j-0-1.csv"});
  EXPECT_TRUE(sink->HasUncommittedOutput());
  ASSERT_OK(sink->SnapshotState(3, &s3));
  ASSERT_OK(sink->NotifyCheckpointComplete(3));
  EXPECT_EQ(testing::ListDirectory(dir_ + "/word=2024-01-02"),
            (std::vector<std::string>{"_SUCCESS", "part-j-0-1.csv"}));
  EXPECT_FALSE(sink->HasUncommittedOutput());
}

// A partition whose values make no time fails the sink, naming the partition.
TEST_F(FilesystemSinkTest, APartitionTimeCommitOfAPartitionWithoutATimeFails) {
  auto sink = Open(true, 0, 0,
                   {{"sink.partition-commit.policy.kind", "success-file"},
                    {"sink.partition-commit.trigger", "partition-time"}},
                   /*partitioned=*/true);
  ASSERT_OK(sink->Process(0, PartitionedRows(0, 1)));  // word=w0
  ASSERT_OK(sink->ProcessWatermark(Watermark{0}));
  OperatorSnapshot s1;
  ASSERT_OK(sink->SnapshotState(1, &s1));
  absl::Status s = sink->NotifyCheckpointComplete(1);
  EXPECT_THAT(s.message(), ::testing::HasSubstr("the partition '{word=w0}' has no time: 'w0' does "
                                                "not parse as yyyy-MM-dd[ HH:mm:ss]"));
}

TEST_F(FilesystemSinkTest, APartitionedRestoreRemovesLeftoversInEveryPartition) {
  OperatorSnapshot s1;
  {
    auto before = Open(true, 0, 0, {}, /*partitioned=*/true);
    ASSERT_OK(before->Process(0, PartitionedRows(0, 2)));
    ASSERT_OK(before->SnapshotState(1, &s1));  // completes; the notification never arrives
    ASSERT_OK(before->Process(0, PartitionedRows(2, 4)));
    ASSERT_OK(before->Close());
  }
  // What a killed process leaves in the partitions: in-progress and pending parts after s1.
  std::ofstream(dir_ + "/word=w2/.part-j-0-2.csv.inprogress.0") << "2\n";
  std::ofstream(dir_ + "/word=w0/.part-j-0-3.csv.pending.0") << "3\n";
  auto after = Open(true, 1, 0, {}, /*partitioned=*/true);
  ASSERT_OK(after->RestoreState(s1));
  EXPECT_EQ(testing::ListDirectory(dir_ + "/word=w0"), std::vector<std::string>{"part-j-0-0.csv"});
  EXPECT_EQ(testing::ListDirectory(dir_ + "/word=w1"), std::vector<std::string>{"part-j-0-1.csv"});
  EXPECT_TRUE(testing::ListDirectory(dir_ + "/word=w2").empty());  // after the checkpoint: gone
  // A restored state naming a part outside the partition directories is refused.
  OperatorSnapshot bad;
  bad.PutInt64("next-part", 1);
  bad.Put("pending", "../.part-j-0-0.csv.pending.0");
  auto other = Open(true, 2, 0, {}, /*partitioned=*/true);
  EXPECT_FALSE(other->RestoreState(bad).ok());
}

TEST_F(FilesystemSinkTest, RestoreWithAMissingPartIsDataLoss) {
  OperatorSnapshot s1;
  {
    auto before = Open(true);
    ASSERT_OK(before->Process(0, Rows(0, 5)));
    ASSERT_OK(before->SnapshotState(1, &s1));
  }
  fs::remove(dir_ + "/.part-j-0-0.csv.pending.0");
  auto after = Open(true, 1);
  absl::Status s = after->RestoreState(s1);
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(s.message().find("cannot publish part '" + dir_ + "/.part-j-0-0.csv.pending.0'"),
            std::string::npos)
      << s;
  OperatorSnapshot forged;
  forged.PutInt64("next-part", 1);
  forged.Put("pending", "../escape.pending.0");
  EXPECT_NE(after->RestoreState(forged).message().find("that this sink does not write"),
            std::string::npos);
}

TEST_F(FilesystemSinkTest, BadRollingOptionsAreErrors) {
  v1::TableSink spec;
  spec.set_table_name("t");
  (*spec.mutable_options())["path"] = dir_;
  (*spec.mutable_options())["format"] = "csv";
  (*spec.mutable_options())["sink.rolling-policy.file-size"] = "big";
  const Schema schema{{{"word", DataType::String()}}};
  EXPECT_EQ(FilesystemSink::Create(spec, schema, {root_}).status().message(),
            "filesystem sink for table 't': option 'sink.rolling-policy.file-size' of table 't' "
            "expects a positive memory size (e.g. 128mb), got 'big'");
}

}  // namespace
}  // namespace eddy
