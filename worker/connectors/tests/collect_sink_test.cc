// CollectSink and checkpoints: what a checkpoint commits, what a restored sink hands out again
// (exactly the chunks the fetcher had not acknowledged) and where its numbering goes on, that a
// restored sink's results are not fetchable before they are restored, and that a sink that did not
// finish withdraws them.
#include "worker/connectors/collect_sink.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "common/batch/batch_codec.h"
#include "tests/util/status_matchers.h"

namespace eddy {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// One row per value: a batch of a single BIGINT column.
ChangelogBatch Rows(std::vector<int64_t> values) {
  ChangelogBatch batch(std::vector<DataType>{DataType::BigInt()});
  for (int64_t v : values) batch.AppendValues({Value::Int(v)}, RowKind::kInsert);
  return batch;
}

class CollectSinkTest : public ::testing::Test {
 protected:
  std::unique_ptr<CollectSink> Open(int attempt) {
    auto sink = std::make_unique<CollectSink>(&buffers_);
    OperatorContext ctx;
    ctx.job_id = "job-1";
    ctx.attempt = attempt;
    EXPECT_OK(sink->Open(ctx));
    return sink;
  }

  // One fetch of the attempt's results, from `offset` (none: from the first chunk held).
  absl::StatusOr<v1::FetchResultChunksResponse> Fetch(int attempt, std::optional<int64_t> offset) {
    v1::FetchResultChunksRequest request;
    request.set_job_id("job-1");
    request.set_attempt(attempt);
    if (offset) request.set_offset(*offset);
    request.set_known_committed_offset(-1);
    v1::FetchResultChunksResponse response;
    if (absl::Status s = buffers_.Fetch(request, &response); !s.ok()) return s;
    return response;
  }

  // The first value of each chunk of a response.
  static std::vector<int64_t> Values(const v1::FetchResultChunksResponse& response) {
    std::vector<int64_t> values;
    for (const auto& chunk : response.chunks()) {
      absl::StatusOr<ChangelogBatch> batch = DecodeBatch(chunk);
      EXPECT_OK(batch);
      if (batch.ok()) values.push_back(batch->column(0).GetValue(0).int_value());
    }
    return values;
  }

  ResultBuffers buffers_;
};

TEST_F(CollectSinkTest, RowsAfterCheckpointNAreCommittedOnlyWhenALaterCheckpointCompletes) {
  auto sink = Open(1);
  ASSERT_OK(sink->Process(0, Rows({1})));
  OperatorSnapshot one;
  ASSERT_OK(sink->SnapshotState(1, &one));
  ASSERT_OK(sink->Process(0, Rows({2})));
  ASSERT_OK_AND_ASSIGN(v1::FetchResultChunksResponse before, Fetch(1, std::nullopt));
  EXPECT_EQ(before.committed_offset(), 0);  // checkpoint 1 has not completed yet

  ASSERT_OK(sink->NotifyCheckpointComplete(1));
  ASSERT_OK_AND_ASSIGN(v1::FetchResultChunksResponse after_one, Fetch(1, 0));
  EXPECT_EQ(after_one.committed_offset(), 1);  // row 2 came after barrier 1
  EXPECT_THAT(Values(after_one), ElementsAre(1, 2));

  OperatorSnapshot two, three;
  ASSERT_OK(sink->SnapshotState(2, &two));
  ASSERT_OK(sink->Process(0, Rows({3})));
  ASSERT_OK(sink->SnapshotState(3, &three));
  ASSERT_OK(sink->NotifyCheckpointComplete(5));  // not snapshotted here: covers 2 and 3
  ASSERT_OK_AND_ASSIGN(v1::FetchResultChunksResponse after_three, Fetch(1, 0));
  EXPECT_EQ(after_three.committed_offset(), 3);
  ASSERT_OK(sink->Close());
}

TEST_F(CollectSinkTest, ARestoredSinkHandsOutExactlyTheUnacknowledgedChunksAndNumbersOn) {
  auto first = Open(1);
  ASSERT_OK(first->Process(0, Rows({1})));
  ASSERT_OK(first->Process(0, Rows({2})));
  ASSERT_OK(Fetch(1, std::nullopt).status());
  ASSERT_OK(Fetch(1, 1).status());  // the fetcher holds chunk 0 now; chunk 1 it may have lost
  ASSERT_OK(first->Process(0, Rows({3})));
  OperatorSnapshot snapshot;
  ASSERT_OK(first->SnapshotState(1, &snapshot));
  ASSERT_OK(first->Process(0, Rows({4})));  // after the checkpoint: produced again after a restore

  auto restored = Open(2);
  ASSERT_OK(restored->RestoreState(snapshot));
  ASSERT_OK(restored->Process(0, Rows({40})));
  ASSERT_OK_AND_ASSIGN(v1::FetchResultChunksResponse response, Fetch(2, std::nullopt));
  EXPECT_EQ(response.attempt(), 2);
  EXPECT_EQ(response.start_offset(), 3);
  EXPECT_EQ(response.first_offset(), 1);
  EXPECT_EQ(response.committed_offset(), 3);
  EXPECT_THAT(Values(response), ElementsAre(2, 3, 40));
  // Attempt 1's results are no longer reachable.
  EXPECT_EQ(Fetch(1, 2).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST_F(CollectSinkTest, ResultsAreFetchableFromTheSinksFirstCallAfterItsRestore) {
  auto first = Open(1);
  ASSERT_OK(first->Process(0, Rows({1})));
  OperatorSnapshot snapshot;
  ASSERT_OK(first->SnapshotState(1, &snapshot));

  auto restored = Open(2);
  EXPECT_EQ(Fetch(2, std::nullopt).status().code(), absl::StatusCode::kNotFound);
  ASSERT_OK(restored->RestoreState(snapshot));
  EXPECT_EQ(Fetch(2, std::nullopt).status().code(), absl::StatusCode::kNotFound);
  ASSERT_OK(restored->OnTick(std::chrono::steady_clock::now()));
  ASSERT_OK_AND_ASSIGN(v1::FetchResultChunksResponse response, Fetch(2, std::nullopt));
  EXPECT_EQ(response.start_offset(), 1);
  EXPECT_THAT(Values(response), ElementsAre(1));
}

TEST_F(CollectSinkTest, ASinkClosedBeforeItsInputEndedWithdrawsItsResults) {
  auto failed = Open(1);
  ASSERT_OK(failed->Process(0, Rows({1})));
  ASSERT_OK(failed->Close());
  EXPECT_EQ(Fetch(1, std::nullopt).status().code(), absl::StatusCode::kNotFound);

  auto finished = Open(2);
  ASSERT_OK(finished->Process(0, Rows({1})));
  ASSERT_OK(finished->Finish());
  ASSERT_OK(finished->Close());
  ASSERT_OK_AND_ASSIGN(v1::FetchResultChunksResponse response, Fetch(2, std::nullopt));
  EXPECT_THAT(Values(response), ElementsAre(1));  // the rest of a finished query's rows stay
  EXPECT_TRUE(response.end());
}

TEST_F(CollectSinkTest, AnEmptySinkEndsWithNoChunks) {
  auto sink = Open(1);
  ASSERT_OK(sink->Finish());
  ASSERT_OK_AND_ASSIGN(v1::FetchResultChunksResponse response, Fetch(1, std::nullopt));
  EXPECT_THAT(Values(response), IsEmpty());
  EXPECT_TRUE(response.end());
}

}  // namespace
}  // namespace eddy
