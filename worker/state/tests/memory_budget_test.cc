// MemoryBudget: how a worker's managed memory is split between RocksDB and the operators' caches.
#include "worker/state/memory_budget.h"

#include <gtest/gtest.h>
#include <unistd.h>

namespace eddy {
namespace {

constexpr size_t kMiB = size_t{1} << 20;

TEST(MemoryBudgetTest, SplitsManagedMemoryBetweenRocksDbAndSlots) {
  MemoryBudget budget(1024 * kMiB, 4);
  EXPECT_EQ(budget.managed_bytes(), 1024 * kMiB);
  EXPECT_EQ(budget.block_cache_bytes(), 32 * kMiB);
  EXPECT_EQ(budget.write_buffer_bytes(), 64 * kMiB);
  EXPECT_EQ(budget.MemtableBytes(), 16 * kMiB);
  EXPECT_EQ(MemoryBudget(8192 * kMiB, 1).MemtableBytes(), 64 * kMiB);
  EXPECT_EQ(budget.slot_state_bytes(), (1024 - 32 - 64) * kMiB / 4);
  // Within a slot, every stateful operator subtask gets the same share.
  EXPECT_EQ(budget.OperatorStateBytes(1), budget.slot_state_bytes());
  EXPECT_EQ(budget.OperatorStateBytes(2), budget.slot_state_bytes() / 2);
  EXPECT_EQ(budget.OperatorStateBytes(0), budget.slot_state_bytes());
}

TEST(MemoryBudgetTest, RocksDbKeepsAMinimumWhenTheBudgetIsTiny) {
  MemoryBudget budget(0, 2);
  EXPECT_EQ(budget.block_cache_bytes(), 8 * kMiB);
  EXPECT_EQ(budget.write_buffer_bytes(), 4 * kMiB);
  EXPECT_EQ(budget.MemtableBytes(), 4 * kMiB);
  EXPECT_EQ(budget.slot_state_bytes(), 0u);
  MemoryBudget small(10 * kMiB, 1);
  EXPECT_EQ(small.slot_state_bytes(), 0u);
}

TEST(MemoryBudgetTest, AppliesItsRocksDbSharesToTheStateBackendOptions) {
  MemoryBudget budget(512 * kMiB, 1);
  StateBackendOptions options;
  options.bloom_bits_per_key = 7;
  StateBackendOptions applied = budget.ApplyTo(options);
  EXPECT_EQ(applied.block_cache_bytes, 16 * kMiB);
  EXPECT_EQ(applied.total_write_buffer_bytes, 32 * kMiB);
  EXPECT_EQ(applied.write_buffer_bytes, 8 * kMiB);  // a quarter of the memtables' share
  // Without state caches the memtables keep the small default.
  EXPECT_EQ(budget.ApplyTo(options, /*state_caches=*/false).write_buffer_bytes,
            options.write_buffer_bytes);
  EXPECT_EQ(applied.bloom_bits_per_key, 7);
}

TEST(MemoryBudgetTest, DefaultIsAQuarterOfTheUsableMemory) {
  const size_t d = MemoryBudget::DefaultManagedBytes();
  // Whatever the machine: more than a few MiB and at most a quarter of the physical memory.
  EXPECT_GT(d, 16 * kMiB);
  const size_t physical =
      static_cast<size_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<size_t>(sysconf(_SC_PAGESIZE));
  EXPECT_LE(d, physical / 4);
}

}  // namespace
}  // namespace eddy
