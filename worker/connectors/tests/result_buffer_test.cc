// ResultBuffer and ResultBuffers: chunks numbered by offset and kept until acknowledged, the bound
// that holds the sink back, offsets out of range, what ends a fetcher's wait, restoring from a
// checkpoint's state, and which attempt's buffer a fetch reaches.
#include "worker/connectors/result_buffer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <vector>

#include "tests/util/status_matchers.h"
#include "worker/connectors/result_buffers.h"

namespace eddy {
namespace {

using std::chrono::seconds;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A chunk recognisable by its row count.
v1::ChangelogBatch Chunk(uint32_t tag) {
  v1::ChangelogBatch chunk;
  chunk.set_num_rows(tag);
  return chunk;
}

std::vector<uint32_t> Tags(const v1::FetchResultChunksResponse& response) {
  std::vector<uint32_t> tags;
  for (const auto& chunk : response.chunks()) tags.push_back(chunk.num_rows());
  return tags;
}

v1::FetchResultChunksRequest From(std::optional<int64_t> offset, int max_wait_ms = 0,
                                  int64_t known_committed = 0) {
  v1::FetchResultChunksRequest request;
  request.set_job_id("job-1");
  request.set_attempt(1);
  if (offset) request.set_offset(*offset);
  request.set_known_committed_offset(known_committed);
  request.set_max_wait_ms(max_wait_ms);
  return request;
}

TEST(ResultBufferTest, ChunksAreNumberedAndKeptUntilAFetchAcknowledgesThem) {
  ResultBuffer buffer("job-1", 1, 16);
  for (uint32_t tag : {10, 11, 12}) ASSERT_TRUE(buffer.Push(Chunk(tag), nullptr));
  v1::FetchResultChunksResponse first;
  ASSERT_OK(buffer.Fetch(From(std::nullopt), &first));
  EXPECT_EQ(first.attempt(), 1);
  EXPECT_EQ(first.start_offset(), 0);
  EXPECT_EQ(first.first_offset(), 0);
  EXPECT_EQ(first.committed_offset(), 0);
  EXPECT_THAT(Tags(first), ElementsAre(10, 11, 12));
  EXPECT_FALSE(first.end());

  // The response may have been lost: the same offset gets the same chunks again.
  v1::FetchResultChunksResponse again;
  ASSERT_OK(buffer.Fetch(From(0), &again));
  EXPECT_THAT(Tags(again), ElementsAre(10, 11, 12));

  v1::FetchResultChunksResponse rest;
  ASSERT_OK(buffer.Fetch(From(2), &rest));
  EXPECT_EQ(rest.first_offset(), 2);
  EXPECT_THAT(Tags(rest), ElementsAre(12));
  v1::CollectSinkState state;
  buffer.Snapshot(&state);
  EXPECT_EQ(state.next_offset(), 3);
  EXPECT_EQ(state.first_offset(), 2);  // 0 and 1 are acknowledged and gone
  ASSERT_EQ(state.unacknowledged_size(), 1);
  EXPECT_EQ(state.unacknowledged(0).num_rows(), 12u);
}

TEST(ResultBufferTest, AFullBufferHoldsTheSinkUntilTheFetcherAcknowledges) {
  ResultBuffer buffer("job-1", 1, 2);
  ASSERT_TRUE(buffer.Push(Chunk(10), nullptr));
  ASSERT_TRUE(buffer.Push(Chunk(11), nullptr));
  std::future<bool> third =
      std::async(std::launch::async, [&] { return buffer.Push(Chunk(12), nullptr); });
  // Handed out but not acknowledged: still held, so the sink still waits.
  v1::FetchResultChunksResponse response;
  ASSERT_OK(buffer.Fetch(From(std::nullopt), &response));
  EXPECT_EQ(third.wait_for(std::chrono::milliseconds(100)), std::future_status::timeout);
  ASSERT_OK(buffer.Fetch(From(1), &response));
  EXPECT_TRUE(third.get());
  EXPECT_EQ(buffer.next_offset(), 3);
}

TEST(ResultBufferTest, AFullBufferGivesUpWhenCancelled) {
  ResultBuffer buffer("job-1", 1, 1);
  ASSERT_TRUE(buffer.Push(Chunk(10), nullptr));
  std::atomic<bool> cancelled{true};
  EXPECT_FALSE(buffer.Push(Chunk(11), &cancelled));
  EXPECT_EQ(buffer.next_offset(), 1);
}

TEST(ResultBufferTest, OffsetsOutsideTheHeldChunksAreOutOfRangeNamingJobAndOffset) {
  ResultBuffer buffer("job-1", 3, 16);
  for (uint32_t tag : {10, 11, 12}) ASSERT_TRUE(buffer.Push(Chunk(tag), nullptr));
  v1::FetchResultChunksResponse response;
  absl::Status beyond = buffer.Fetch(From(4), &response);
  EXPECT_EQ(beyond.code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(
      beyond.message(),
      "job job-1 attempt 3: result offset 4 is beyond the 3 chunks its collect sink produced");
  ASSERT_OK(buffer.Fetch(From(3), &response));  // everything acknowledged: fine, nothing new
  EXPECT_TRUE(response.chunks().empty());
  absl::Status gone = buffer.Fetch(From(1), &response);
  EXPECT_EQ(gone.code(), absl::StatusCode::kOutOfRange);
  EXPECT_THAT(std::string(gone.message()),
              HasSubstr("result offset 1 was acknowledged already (the chunks held start at "
                        "offset 3)"));
}

TEST(ResultBufferTest, AWaitingFetchEndsWithANewChunkACommitOrTheEnd) {
  ResultBuffer buffer("job-1", 1, 16);
  auto fetch = [&](v1::FetchResultChunksRequest request) {
    return std::async(std::launch::async, [&buffer, request] {
      v1::FetchResultChunksResponse response;
      EXPECT_OK(buffer.Fetch(request, &response));
      return response;
    });
  };
  auto by_chunk = fetch(From(0, 60000));
  ASSERT_TRUE(buffer.Push(Chunk(10), nullptr));
  ASSERT_EQ(by_chunk.wait_for(seconds(20)), std::future_status::ready);
  EXPECT_THAT(Tags(by_chunk.get()), ElementsAre(10));

  auto by_commit = fetch(From(1, 60000, /*known_committed=*/0));
  buffer.Commit(1);
  ASSERT_EQ(by_commit.wait_for(seconds(20)), std::future_status::ready);
  v1::FetchResultChunksResponse committed = by_commit.get();
  EXPECT_TRUE(committed.chunks().empty());
  EXPECT_EQ(committed.committed_offset(), 1);

  auto by_end = fetch(From(1, 60000, /*known_committed=*/1));
  buffer.End();
  ASSERT_EQ(by_end.wait_for(seconds(20)), std::future_status::ready);
  EXPECT_TRUE(by_end.get().end());
}

TEST(ResultBufferTest, TheEndComesWithTheLastChunk) {
  ResultBuffer buffer("job-1", 1, 16);
  ASSERT_TRUE(buffer.Push(Chunk(10), nullptr));
  ASSERT_TRUE(buffer.Push(Chunk(11), nullptr));
  buffer.End();
  v1::FetchResultChunksResponse response;
  ASSERT_OK(buffer.Fetch(From(1), &response));
  EXPECT_THAT(Tags(response), ElementsAre(11));
  EXPECT_TRUE(response.end());
}

TEST(ResultBufferTest, ARestoredBufferHandsOutTheUnacknowledgedChunksAndNumbersOnFromThere) {
  ResultBuffer buffer("job-1", 2, 16);
  v1::CollectSinkState state;
  state.set_next_offset(5);
  state.set_first_offset(3);
  *state.add_unacknowledged() = Chunk(13);
  *state.add_unacknowledged() = Chunk(14);
  ASSERT_OK(buffer.Restore(state));
  ASSERT_TRUE(buffer.Push(Chunk(25), nullptr));
  v1::FetchResultChunksRequest request = From(std::nullopt);
  request.set_attempt(2);
  v1::FetchResultChunksResponse response;
  ASSERT_OK(buffer.Fetch(request, &response));
  EXPECT_EQ(response.start_offset(), 5);
  EXPECT_EQ(response.first_offset(), 3);
  EXPECT_EQ(response.committed_offset(), 5);  // the restored checkpoint completed
  EXPECT_THAT(Tags(response), ElementsAre(13, 14, 25));
  EXPECT_EQ(buffer.next_offset(), 6);

  ResultBuffer inconsistent("job-1", 2, 16);
  state.set_first_offset(1);
  EXPECT_EQ(inconsistent.Restore(state).code(), absl::StatusCode::kDataLoss);
}

TEST(ResultBuffersTest, AFetchReachesTheBufferOfItsAttemptOnly) {
  ResultBuffers buffers;
  auto first = std::make_shared<ResultBuffer>("job-1", 1, 16);
  buffers.Publish(first);
  v1::FetchResultChunksResponse response;
  v1::FetchResultChunksRequest second_attempt = From(std::nullopt);
  second_attempt.set_attempt(2);
  EXPECT_EQ(buffers.Fetch(second_attempt, &response).code(), absl::StatusCode::kNotFound);
  ASSERT_OK(buffers.Fetch(From(std::nullopt), &response));

  auto second = std::make_shared<ResultBuffer>("job-1", 2, 16);
  buffers.Publish(second);
  buffers.Publish(first);  // an older attempt's sink, late: replaces nothing
  absl::Status over = buffers.Fetch(From(std::nullopt), &response);
  EXPECT_EQ(over.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(over.message(),
            "job job-1 attempt 1 is over on this worker: it holds the results of attempt 2");
  ASSERT_OK(buffers.Fetch(second_attempt, &response));

  buffers.Drop("job-1", 1);  // a cancel of attempt 1 leaves attempt 2's results
  ASSERT_OK(buffers.Fetch(second_attempt, &response));
  buffers.Drop("job-1", 2);
  EXPECT_EQ(buffers.Fetch(second_attempt, &response).code(), absl::StatusCode::kNotFound);
}

TEST(ResultBuffersTest, ABufferGoesOnceItsEndIsHandedOver) {
  ResultBuffers buffers;
  auto buffer = std::make_shared<ResultBuffer>("job-1", 1, 16);
  buffers.Publish(buffer);
  ASSERT_TRUE(buffer->Push(Chunk(10), nullptr));
  buffer->End();
  v1::FetchResultChunksResponse response;
  ASSERT_OK(buffers.Fetch(From(std::nullopt), &response));
  EXPECT_TRUE(response.end());
  EXPECT_EQ(buffers.Fetch(From(1), &response).code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace eddy
