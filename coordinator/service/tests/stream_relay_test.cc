// The coordinator's relay buffer of a client stream: batches numbered in order, kept until
// confirmed, credits back only as they are dropped, the end and a lost writer seen by the reader.
#include "coordinator/service/stream_relay.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace eddy {
namespace {

using ::testing::HasSubstr;

v1::ChangelogBatch Batch(const std::string& tag) {
  v1::ChangelogBatch b;
  b.set_row_kinds(tag);
  return b;
}

v1::PullStreamRequest Pull(int64_t after, int64_t confirmed, const std::string& job = "j1") {
  v1::PullStreamRequest r;
  r.set_stream_id("s");
  r.set_job_id(job);
  r.set_after_seq(after);
  r.set_confirmed_seq(confirmed);
  r.set_max_batches(10);
  return r;
}

TEST(StreamRelayTest, KeepsBatchesUntilConfirmedSoAReaderCanReadThemAgain) {
  StreamRelay relay("s", 3);
  ASSERT_TRUE(relay.AttachWriter().ok());
  for (const char* t : {"a", "b", "c"}) ASSERT_TRUE(relay.Append(Batch(t)).ok());
  // Beyond the buffer: the writer had no credit for it.
  EXPECT_EQ(relay.Append(Batch("d")).code(), absl::StatusCode::kResourceExhausted);

  auto first = relay.Pull(Pull(0, 0));
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_EQ(first->batches_size(), 3);
  EXPECT_EQ(first->batches(2).row_kinds(), "c");
  EXPECT_FALSE(first->end());
  EXPECT_EQ(relay.kept(), 3u);  // nothing confirmed yet

  // A restored reader at batch 1 reads 2 and 3 again; confirming 1 drops it, one credit back.
  auto again = relay.Pull(Pull(1, 1));
  ASSERT_TRUE(again.ok());
  ASSERT_EQ(again->batches_size(), 2);
  EXPECT_EQ(again->batches(0).row_kinds(), "b");
  EXPECT_EQ(relay.kept(), 2u);
  EXPECT_EQ(relay.WaitDropped(0, 0), 1);
  ASSERT_TRUE(relay.Append(Batch("d")).ok());

  // Batch 1 is gone: a reader behind it is told so.
  auto lost = relay.Pull(Pull(0, 0));
  EXPECT_EQ(lost.status().code(), absl::StatusCode::kDataLoss);

  ASSERT_TRUE(relay.Close().ok());
  auto last = relay.Pull(Pull(3, 3));
  ASSERT_TRUE(last.ok());
  ASSERT_EQ(last->batches_size(), 1);
  EXPECT_EQ(last->batches(0).row_kinds(), "d");
  EXPECT_TRUE(last->end());
  EXPECT_EQ(relay.Append(Batch("e")).code(), absl::StatusCode::kFailedPrecondition);
}

TEST(StreamRelayTest, OneWriterOneReadingJobAndALostWriterFailsTheReader) {
  StreamRelay relay("s", 4);
  ASSERT_TRUE(relay.AttachWriter().ok());
  EXPECT_THAT(std::string(relay.AttachWriter().message()), HasSubstr("already has a writer"));
  ASSERT_TRUE(relay.Append(Batch("a")).ok());
  ASSERT_TRUE(relay.Pull(Pull(0, 0)).ok());
  auto other = relay.Pull(Pull(0, 0, "j2"));
  EXPECT_THAT(std::string(other.status().message()), HasSubstr("is read by job j1"));

  relay.WriterLost("its connection ended");
  // What the writer sent before is still read; then the reader fails.
  auto rest = relay.Pull(Pull(1, 1));
  EXPECT_EQ(rest.status().code(), absl::StatusCode::kAborted);
  EXPECT_THAT(std::string(rest.status().message()), HasSubstr("went away without closing it"));
}

}  // namespace
}  // namespace eddy
