// A worker's managed memory bounds the keyed state its operators keep in memory: each stateful
// operator subtask gets its share of the slot it runs in, and what does not fit goes to RocksDB.
#include <gtest/gtest.h>

#include <string>

#include "client/eddy_client.h"
#include "client/embedded/embedded_cluster.h"

namespace eddy {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20;

const v1::OperatorMetrics* FindContaining(const v1::JobInfo& job, const std::string& text) {
  for (const auto& m : job.operators()) {
    if (m.description().find(text) != std::string::npos) return &m;
  }
  return nullptr;
}

TEST(ManagedMemoryTest, EachStatefulOperatorOfASlotKeepsItsShareInMemoryAndSpillsTheRest) {
  // 48 MiB: 8 MiB block cache and 4 MiB memtables (the minimums), 36 MiB for two slots' state,
  // 18 MiB per slot; the job's two aggregates run in one slot, so 9 MiB each.
  auto cluster = EmbeddedCluster::Start(
      {.workers = 1, .slots = 2, .managed_memory_bytes = static_cast<size_t>(48 * kMiB)});
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  EddyClient client((*cluster)->coordinator_address(), "managed-memory-test");
  for (const std::string& sql : {
           std::string("SET 'parallelism.default' = '1'"),
           std::string("CREATE TEMPORARY TABLE src (k BIGINT) WITH ('connector' = 'datagen', "
                       "'number-of-rows' = '600000', 'rows-per-second' = '1000000000', "
                       "'fields.k.kind' = 'sequence', 'fields.k.start' = '1', "
                       "'fields.k.end' = '600000')"),
           std::string("CREATE TEMPORARY TABLE hole (c BIGINT, n BIGINT) WITH ('connector' = "
                       "'blackhole')"),
       }) {
    auto r = client.Execute(sql);
    ASSERT_TRUE(r.ok()) << sql << ": " << r.status();
  }
  auto submitted = client.Execute(
      "INSERT INTO hole SELECT c, COUNT(*) FROM (SELECT k, COUNT(*) AS c FROM src GROUP BY k) "
      "GROUP BY c");
  ASSERT_TRUE(submitted.ok()) << submitted.status();
  auto info = client.WaitJob(submitted->job_id(), 120000);
  ASSERT_TRUE(info.ok()) << info.status();
  ASSERT_EQ(info->status(), v1::JOB_STATUS_FINISHED) << info->error();

  // 600,000 keys take about 18 MiB in memory (a 19-byte record and an index slot each): the inner
  // aggregate holds up to its 9 MiB (eviction runs after each batch, so a batch's keys may exceed
  // it a little) and spilled the rest.
  const v1::OperatorMetrics* inner = FindContaining(*info, "groupBy=[k]");
  ASSERT_NE(inner, nullptr) << info->DebugString();
  EXPECT_LE(inner->state_bytes_in_memory(), 9 * kMiB);
  EXPECT_GE(inner->state_bytes_in_memory(), 8 * kMiB);
  EXPECT_GT(inner->state_bytes_in_store(), 0);
  // The outer one has a single key (every count is 1).
  const v1::OperatorMetrics* outer = FindContaining(*info, "groupBy=[c]");
  ASSERT_NE(outer, nullptr) << info->DebugString();
  EXPECT_GT(outer->state_bytes_in_memory(), 0);
  EXPECT_LT(outer->state_bytes_in_memory(), 1024);
}

}  // namespace
}  // namespace eddy
