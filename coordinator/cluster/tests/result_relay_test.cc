// ResultRelay: which fetched chunks reach the client and when (as they come, or only once
// committed or the job finished), what an attempt restored from a checkpoint replaces, and the
// responses it refuses or ignores.
#include "coordinator/cluster/result_relay.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "common/rpc/message_limits.h"
#include "tests/util/status_matchers.h"

namespace eddy {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// A chunk recognisable by its row count (`tag`), `padding` bytes large.
v1::ChangelogBatch Chunk(uint32_t tag, size_t padding = 0) {
  v1::ChangelogBatch chunk;
  chunk.set_num_rows(tag);
  chunk.set_row_kinds(std::string(padding, '\0'));
  return chunk;
}

struct Response {
  int attempt = 1;
  int64_t start = 0;
  int64_t first = 0;
  int64_t committed = 0;
  std::vector<uint32_t> tags;
  bool end = false;
};

v1::FetchResultChunksResponse Make(const Response& r) {
  v1::FetchResultChunksResponse out;
  out.set_attempt(r.attempt);
  out.set_start_offset(r.start);
  out.set_first_offset(r.first);
  out.set_committed_offset(r.committed);
  for (uint32_t tag : r.tags) *out.add_chunks() = Chunk(tag);
  out.set_end(r.end);
  return out;
}

// The tags of the chunks one Deliver hands over.
std::vector<uint32_t> Delivered(ResultRelay& relay, bool* end = nullptr) {
  v1::FetchResultsResponse out;
  relay.Deliver(&out);
  if (end != nullptr) *end = out.end();
  std::vector<uint32_t> tags;
  for (const auto& b : out.batches()) tags.push_back(b.num_rows());
  return tags;
}

TEST(ResultRelayTest, WithoutCheckpointingEveryChunkGoesToTheClientAsItComes) {
  ResultRelay relay("job-1", /*exactly_once=*/false);
  relay.FollowAttempt(1);
  v1::FetchResultChunksRequest first = relay.NextRequest(200);
  EXPECT_EQ(first.job_id(), "job-1");
  EXPECT_EQ(first.attempt(), 1);
  EXPECT_FALSE(first.has_offset());  // where the attempt starts is not known yet
  EXPECT_EQ(first.max_wait_ms(), 200);

  ASSERT_OK(relay.Accept(Make({.tags = {10, 11}})));
  bool end = true;
  EXPECT_THAT(Delivered(relay, &end), ElementsAre(10, 11));
  EXPECT_FALSE(end);
  v1::FetchResultChunksRequest next = relay.NextRequest(0);
  ASSERT_TRUE(next.has_offset());
  EXPECT_EQ(next.offset(), 2);

  ASSERT_OK(relay.Accept(Make({.first = 2, .tags = {12}, .end = true})));
  EXPECT_TRUE(relay.sink_ended());
  EXPECT_THAT(Delivered(relay, &end), ElementsAre(12));
  EXPECT_FALSE(end);  // the end is the job's, once its subtasks all finished
  relay.JobFinished();
  EXPECT_THAT(Delivered(relay, &end), IsEmpty());
  EXPECT_TRUE(end);
  EXPECT_TRUE(relay.at_end());
}

TEST(ResultRelayTest, WithCheckpointingOnlyCommittedChunksReachTheClient) {
  ResultRelay relay("job-1", /*exactly_once=*/true);
  relay.FollowAttempt(1);
  ASSERT_OK(relay.Accept(Make({.committed = 0, .tags = {10, 11, 12, 13, 14}})));
  EXPECT_FALSE(relay.HasDeliverable());
  EXPECT_THAT(Delivered(relay), IsEmpty());
  // The fetcher keeps fetching (draining the worker) while nothing is committed.
  EXPECT_EQ(relay.NextRequest(0).offset(), 5);
  EXPECT_EQ(relay.NextRequest(0).known_committed_offset(), 0);

  ASSERT_OK(relay.Accept(Make({.first = 5, .committed = 2})));
  EXPECT_TRUE(relay.HasDeliverable());
  EXPECT_THAT(Delivered(relay), ElementsAre(10, 11));
  EXPECT_EQ(relay.NextRequest(0).known_committed_offset(), 2);
  ASSERT_OK(relay.Accept(Make({.first = 5, .committed = 5, .tags = {15}})));
  EXPECT_THAT(Delivered(relay), ElementsAre(12, 13, 14));
  EXPECT_EQ(relay.delivered_offset(), 5);
  EXPECT_EQ(relay.fetched_offset(), 6);
}

TEST(ResultRelayTest, WhenTheJobFinishesEveryFetchedChunkIsFinal) {
  ResultRelay relay("job-1", /*exactly_once=*/true);
  relay.FollowAttempt(1);
  ASSERT_OK(relay.Accept(Make({.committed = 1, .tags = {10, 11, 12}, .end = true})));
  bool end = true;
  EXPECT_THAT(Delivered(relay, &end), ElementsAre(10));
  EXPECT_FALSE(end);
  relay.JobFinished();
  EXPECT_THAT(Delivered(relay, &end), ElementsAre(11, 12));
  EXPECT_TRUE(end);
}

TEST(ResultRelayTest, ARestoredAttemptReplacesTheChunksFromItsStartAndGoesOnFromThere) {
  ResultRelay relay("job-1", /*exactly_once=*/true);
  relay.FollowAttempt(1);
  // Attempt 1 produced chunks 0-5; checkpoint 1 covers 0-1 and the client has them.
  ASSERT_OK(relay.Accept(Make({.committed = 2, .tags = {10, 11, 12, 13, 14, 15}})));
  EXPECT_THAT(Delivered(relay), ElementsAre(10, 11));

  // Attempt 2 restores checkpoint 2, taken at offset 4 while chunk 3 was not yet fetched.
  relay.FollowAttempt(2);
  EXPECT_FALSE(relay.HasDeliverable());  // nothing goes before the attempt says where it starts
  v1::FetchResultChunksRequest probe = relay.NextRequest(200);
  EXPECT_EQ(probe.attempt(), 2);
  EXPECT_FALSE(probe.has_offset());
  EXPECT_EQ(probe.known_committed_offset(), -1);
  ASSERT_OK(relay.Accept(
      Make({.attempt = 2, .start = 4, .first = 3, .committed = 4, .tags = {13, 24, 25}})));
  // Chunks 2-3 of attempt 1 stay (the checkpoint covers them), 4-5 are attempt 2's.
  EXPECT_EQ(relay.fetched_offset(), 6);
  EXPECT_THAT(Delivered(relay), ElementsAre(12, 13));
  EXPECT_EQ(relay.NextRequest(0).offset(), 6);
  ASSERT_OK(relay.Accept(Make({.attempt = 2, .start = 4, .first = 6, .committed = 6})));
  EXPECT_THAT(Delivered(relay), ElementsAre(24, 25));
}

TEST(ResultRelayTest, AResponseOfAnotherAttemptIsIgnored) {
  ResultRelay relay("job-1", /*exactly_once=*/true);
  relay.FollowAttempt(1);
  ASSERT_OK(relay.Accept(Make({.committed = 1, .tags = {10, 11}})));
  relay.FollowAttempt(2);
  ASSERT_OK(relay.Accept(Make({.attempt = 1, .first = 2, .committed = 3, .tags = {12}})));
  EXPECT_EQ(relay.stale_responses(), 1);
  EXPECT_EQ(relay.fetched_offset(), 2);
  EXPECT_THAT(Delivered(relay), IsEmpty());
  ASSERT_OK(relay.Accept(Make({.attempt = 2, .start = 1, .first = 1, .committed = 1})));
  EXPECT_EQ(relay.fetched_offset(), 1);
  EXPECT_THAT(Delivered(relay), ElementsAre(10));
}

TEST(ResultRelayTest, AnAttemptStartingBelowWhatTheClientReceivedIsDataLoss) {
  ResultRelay relay("job-7", /*exactly_once=*/true);
  relay.FollowAttempt(1);
  ASSERT_OK(relay.Accept(Make({.committed = 3, .tags = {10, 11, 12}})));
  EXPECT_THAT(Delivered(relay), ElementsAre(10, 11, 12));
  relay.FollowAttempt(2);
  absl::Status s = relay.Accept(Make({.attempt = 2, .start = 1, .first = 1, .committed = 1}));
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("job job-7 attempt 2 starts its results at offset 1"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("up to offset 3"));
}

TEST(ResultRelayTest, WithoutCheckpointingARestartIsDataLossToo) {
  ResultRelay relay("job-1", /*exactly_once=*/false);
  relay.FollowAttempt(1);
  ASSERT_OK(relay.Accept(Make({.tags = {10}})));
  EXPECT_THAT(Delivered(relay), ElementsAre(10));
  relay.FollowAttempt(2);
  EXPECT_EQ(relay.Accept(Make({.attempt = 2, .tags = {10}})).code(), absl::StatusCode::kDataLoss);
}

TEST(ResultRelayTest, AHoleAfterTheHeldChunksIsDataLoss) {
  ResultRelay relay("job-1", /*exactly_once=*/true);
  relay.FollowAttempt(1);
  ASSERT_OK(relay.Accept(Make({.tags = {10, 11}})));
  absl::Status s = relay.Accept(Make({.first = 4, .tags = {14}}));
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(std::string(s.message()), HasSubstr("from offset 4"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("only up to offset 2"));
  // Chunks it already holds again are skipped.
  ASSERT_OK(relay.Accept(Make({.first = 1, .tags = {11, 12}})));
  EXPECT_EQ(relay.fetched_offset(), 3);
}

TEST(ResultRelayTest, AClientResponseTakesChunksUpToTheResponseSize) {
  ResultRelay relay("job-1", /*exactly_once=*/false);
  relay.FollowAttempt(1);
  const size_t third = kFetchResultsResponseBytes / 3 + 1;
  v1::FetchResultChunksResponse big = Make({});
  for (uint32_t tag = 0; tag < 5; ++tag) *big.add_chunks() = Chunk(tag, third);
  ASSERT_OK(relay.Accept(std::move(big)));
  EXPECT_TRUE(relay.HasFullResponse());
  EXPECT_THAT(Delivered(relay), ElementsAre(0, 1, 2));
  EXPECT_FALSE(relay.HasFullResponse());
  EXPECT_THAT(Delivered(relay), ElementsAre(3, 4));
}

}  // namespace
}  // namespace eddy
