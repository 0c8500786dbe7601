// What every keyed state store of a worker shares: one block cache and one write-buffer budget
// (RocksDB's WriteBufferManager), so that a worker can run many small stores (one per stateful
// operator subtask) within one memory bound, plus the tuning and the clock of state TTL.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

namespace eddy {

// Tuning; defaults suit a streaming aggregate on a small worker (point lookups, many overwrites).
struct StateBackendOptions {
  // LRU cache for data, index and filter blocks, shared by every store of the worker.
  size_t block_cache_bytes = 64u << 20;
  // Per memtable of each store. Small by default: without a state cache in front, aggregates
  // overwrite the same keys, so every version piles up in the memtable skip list, whose depth and
  // cache misses dominated lookups and inserts. Measured (COUNT+SUM over 100k keys, 1024-row
  // batches, 2M rows, no cache): 32 MB 175k rows/s, 4 MB 290k rows/s. A worker's MemoryBudget
  // sets a quarter of its write-buffer share (16 MiB of 1 GiB of managed memory): with the state
  // cache in front, a memtable takes only evicted state, and larger memtables mean fewer, larger
  // L0 files and less compaction.
  size_t write_buffer_bytes = 4u << 20;
  int max_write_buffers = 3;
  // All memtables of all stores of the worker together: past this, the largest memtables are
  // flushed, so that many stores do not each hold max_write_buffers * write_buffer_bytes.
  size_t total_write_buffer_bytes = 64u << 20;
  int background_jobs = 2;      // flush + compaction threads (RocksDB's pool is process-wide)
  int bloom_bits_per_key = 10;  // ~1% false positives: most misses (new keys) skip SSTs
  // No WAL: a store's durable form is its snapshot (KeyedStateBackend::Snapshot flushes the
  // memtables first), never a replay of its log, so logging every write would only cost I/O.
  bool disable_wal = true;
  // Milliseconds on a monotonic clock, for state TTL (timestamps in values and the compaction
  // filter that drops expired ones). Unset: steady_clock. Tests inject a manual clock.
  std::function<int64_t()> now_ms;
};

class SharedStateResources {
 public:
  explicit SharedStateResources(StateBackendOptions options = {});
  ~SharedStateResources();
  SharedStateResources(const SharedStateResources&) = delete;
  SharedStateResources& operator=(const SharedStateResources&) = delete;

  const StateBackendOptions& options() const { return options_; }
  int64_t NowMs() const { return options_.now_ms(); }

  // Bytes in the shared block cache and in the memtables counted by the shared budget.
  size_t BlockCacheUsage() const;
  size_t WriteBufferUsage() const;

  struct Rocks;  // RocksDB objects, defined in worker/state/rocksdb_options.h
  const Rocks& rocks() const { return *rocks_; }

 private:
  StateBackendOptions options_;
  std::unique_ptr<Rocks> rocks_;
};

}  // namespace eddy
