// A worker's managed memory (--managed-memory-mb), as Flink's managed memory: the bound on what
// keyed state holds in memory. It is split once per worker into RocksDB's block cache, RocksDB's
// write buffers (all stores together) and the operator state caches, whose share is divided
// evenly over the slots and, within a slot, over the stateful operator subtasks deployed into it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "worker/state/state_resources.h"

namespace eddy {

class MemoryBudget {
 public:
  // The default managed memory: a quarter of what this process may use (the cgroup's memory
  // limit when there is one, else the machine's physical memory).
  static size_t DefaultManagedBytes();

  MemoryBudget(size_t managed_bytes, int slots);

  size_t managed_bytes() const { return managed_bytes_; }
  // RocksDB's shares (a thirty-second for the block cache, a sixteenth for all memtables), at
  // least 8 MiB and 4 MiB. The block cache is small because the operators' in-memory state is the
  // authority and RocksDB only its spill: a data block of spilled keys holds what an operator's
  // table would hold in about the same bytes, but a hit there still costs a RocksDB lookup, so the
  // memory serves more as table (measured: an aggregate over 10M keys with a gigabyte of managed
  // memory used a tenth (quiet machine) to a fifth (loaded) less CPU with a thirty-second of it as
  // block cache than with an eighth, and about as much with a sixty-fourth; docs/performance.md).
  size_t block_cache_bytes() const { return block_cache_bytes_; }
  size_t write_buffer_bytes() const { return write_buffer_bytes_; }
  // One memtable of a store: a quarter of the write-buffer share, within 4 and 64 MiB (larger
  // memtables mean fewer, larger L0 files and less compaction of spilled state; the shared
  // write-buffer budget still bounds all memtables together).
  size_t MemtableBytes() const;
  // What is left for the state caches of one slot's operators.
  size_t slot_state_bytes() const { return slot_state_bytes_; }
  // The state cache of one stateful operator subtask in a slot that holds `stateful_operators`.
  size_t OperatorStateBytes(int stateful_operators) const;
  // StateBackendOptions with this budget's RocksDB shares and memtable size. Without operator
  // state caches (`state_caches` false: --state-cache-mb 0) every change of a batch reaches the
  // memtables, which then keep `options`' small size: overwrites of the same keys pile up in a
  // large memtable's skip list (measured: an aggregate over 100K keys with the caches off ran at
  // 130,000 rows per CPU-second with 64 MiB memtables, 180,000 with 4 MiB).
  StateBackendOptions ApplyTo(StateBackendOptions options, bool state_caches = true) const;

 private:
  size_t managed_bytes_;
  size_t block_cache_bytes_;
  size_t write_buffer_bytes_;
  size_t slot_state_bytes_;
};

}  // namespace eddy
