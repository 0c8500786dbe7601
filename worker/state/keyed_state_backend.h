// A keyed state store: one RocksDB instance holding the state of one stateful operator subtask
// (StateStores opens one per (job, state id, subtask) and keeps it until the job ends). Stores
// share their worker's block cache and write-buffer budget (SharedStateResources). The API is
// batch-shaped: one MultiGet and one atomic write batch per input batch. Keys follow state_key.h.
// A store can be snapshotted (hard links, cheap) and opened again from a snapshot. This folder is
// the only place that includes RocksDB.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/base/hash.h"
#include "worker/state/state_resources.h"

namespace rocksdb {
class DB;
class WriteBatch;
}  // namespace rocksdb

namespace eddy {

// State TTL (table.exec.state.ttl): a keyed operator with a TTL stores each value as an 8-byte
// big-endian last-write timestamp (StateBackendOptions::now_ms) followed by its payload. A value
// whose timestamp + TTL <= now is expired: KeyedStateTable reads it as absent, and RocksDB
// compactions drop it (a compaction filter that knows each registered state id's TTL).
inline constexpr size_t kStateTtlHeaderSize = 8;
inline void AppendTtlTimestamp(int64_t ms, std::string* out) {
  for (int i = 7; i >= 0; --i) {
    out->push_back(static_cast<char>((static_cast<uint64_t>(ms) >> (8 * i)) & 0xff));
  }
}
inline int64_t TtlTimestampOf(std::string_view value) {
  uint64_t ms = 0;
  for (size_t i = 0; i < kStateTtlHeaderSize && i < value.size(); ++i) {
    ms = (ms << 8) | static_cast<uint8_t>(value[i]);
  }
  return static_cast<int64_t>(ms);
}
inline bool TtlExpired(std::string_view value, int64_t ttl_ms, int64_t now_ms) {
  return value.size() < kStateTtlHeaderSize || TtlTimestampOf(value) + ttl_ms <= now_ms;
}

// Writes collected for one KeyedStateBackend::Write call, applied atomically.
class StateWriteBatch {
 public:
  StateWriteBatch();
  ~StateWriteBatch();
  StateWriteBatch(StateWriteBatch&&) noexcept;
  StateWriteBatch& operator=(StateWriteBatch&&) noexcept;

  void Put(std::string_view key, std::string_view value);
  void Delete(std::string_view key);
  void Clear();
  size_t count() const { return count_; }

 private:
  friend class KeyedStateBackend;
  std::unique_ptr<rocksdb::WriteBatch> batch_;
  size_t count_ = 0;
};

// The values found by one MultiGet. Values stay valid until the next MultiGet into this object;
// reusing one result object across batches reuses its buffers.
class StateReadResult {
 public:
  StateReadResult();
  ~StateReadResult();
  StateReadResult(StateReadResult&&) noexcept;
  StateReadResult& operator=(StateReadResult&&) noexcept;

  size_t size() const;
  bool found(size_t i) const;
  std::string_view value(size_t i) const;  // empty when !found(i)

 private:
  friend class KeyedStateBackend;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Thread-safe (RocksDB is; our counters are atomic), though in the worker one task uses a store.
// Per-call objects (StateWriteBatch, StateReadResult) belong to one caller.
class KeyedStateBackend {
 public:
  struct Stats {
    uint64_t multiget_calls = 0;
    uint64_t keys_read = 0;
    uint64_t write_batches = 0;
    uint64_t keys_written = 0;  // puts + deletes
  };

  // Opens the store at `path` (created with its parent directories if missing; an existing store
  // is opened as it is: whoever owns the directory decides when it is fresh, see StateStores).
  static absl::StatusOr<std::unique_ptr<KeyedStateBackend>> Open(
      const std::string& path, std::shared_ptr<SharedStateResources> resources);
  // The same with resources of its own (tests and tools).
  static absl::StatusOr<std::unique_ptr<KeyedStateBackend>> Open(
      const std::string& path, const StateBackendOptions& options = {});
  // Replaces whatever is at `path` with the snapshot at `snapshot_dir` (see Snapshot) and opens it.
  // SST files are hard-linked (copied across file systems), the few other files copied, so the
  // snapshot stays untouched and may be restored again.
  static absl::StatusOr<std::unique_ptr<KeyedStateBackend>> OpenFromSnapshot(
      const std::string& snapshot_dir, const std::string& path,
      std::shared_ptr<SharedStateResources> resources);
  ~KeyedStateBackend();

  KeyedStateBackend(const KeyedStateBackend&) = delete;
  KeyedStateBackend& operator=(const KeyedStateBackend&) = delete;

  // Looks up all `keys` at once (rocksdb::DB::MultiGet batches block reads and bloom probes).
  absl::Status MultiGet(std::span<const std::string_view> keys, StateReadResult* result);
  // Applies `batch` atomically and clears it.
  absl::Status Write(StateWriteBatch* batch);

  // Writes a consistent snapshot of the store into `dir`, which must not exist (its parent is
  // created): memtables are flushed, then every live file is hard-linked (rocksdb::Checkpoint), so
  // a snapshot costs little time or space. Writes after it do not change it.
  absl::Status Snapshot(const std::string& dir);

  // Removes every key of `state_id`: one DeleteRange per key group, in one atomic write.
  absl::Status DeleteState(uint32_t state_id, int max_parallelism = kMaxParallelism);

  // Calls `fn` for every key starting with `prefix`, in key order, and leaves them (the rows of a
  // join key on one side of a join, read for every match). The key passed to `fn` is the full
  // state key; an error from `fn` stops the scan and is returned.
  absl::Status ScanPrefix(
      std::string_view prefix,
      const std::function<absl::Status(std::string_view key, std::string_view value)>& fn);
  // The same, then deletes them all in one write (a window that fired reads its groups once and
  // drops them).
  absl::Status ScanAndDeletePrefix(
      std::string_view prefix,
      const std::function<absl::Status(std::string_view key, std::string_view value)>& fn);

  // True when the store holds no key at all (one seek). An error reads as not empty.
  bool IsEmpty();

  // Exact number of live keys of `state_id` (scans them: tests and diagnostics only).
  absl::StatusOr<uint64_t> CountKeys(uint32_t state_id);

  // State TTL of `state_id`'s values (> 0), for the compaction filter; Unregister forgets it.
  void RegisterStateTtl(uint32_t state_id, int64_t ttl_ms);
  void UnregisterStateTtl(uint32_t state_id);
  // The clock of StateBackendOptions::now_ms.
  int64_t NowMs() const;
  // Compacts the whole DB now, so that the compaction filter drops expired state (RocksDB does the
  // same in the background as writes arrive): tests and operations.
  absl::Status CompactAll();

  // RocksDB's estimates over the whole DB (cheap; memtable entries include overwrites/deletes).
  uint64_t ApproximateNumKeys();
  uint64_t ApproximateSizeBytes();
  // The two parts of ApproximateSizeBytes: live SST files and every memtable.
  uint64_t SstFilesBytes();
  uint64_t MemTableBytes();

  Stats stats() const;
  const std::string& path() const { return path_; }

  // The state cache in front of the store (KeyedStateTable, NativeGroupState) counts its lookups
  // here, once per batch: those it answered from memory (hits) and those it did not (misses: read
  // from the store, or known absent). Summed over every table of the operator subtask; read by
  // the metrics from any thread.
  void CountCacheLookups(uint64_t hits, uint64_t misses) {
    cache_hits_.fetch_add(hits, std::memory_order_relaxed);
    cache_misses_.fetch_add(misses, std::memory_order_relaxed);
  }
  uint64_t cache_hits() const { return cache_hits_.load(std::memory_order_relaxed); }
  uint64_t cache_misses() const { return cache_misses_.load(std::memory_order_relaxed); }

  struct TtlRegistry;  // internal: shared with the compaction filter

 private:
  KeyedStateBackend(std::string path, std::shared_ptr<SharedStateResources> resources,
                    std::unique_ptr<rocksdb::DB> db, std::shared_ptr<TtlRegistry> ttl);
  // ScanPrefix, adding a delete of every key scanned to `deletes` when it is not null.
  absl::Status ScanPrefixInto(
      std::string_view prefix,
      const std::function<absl::Status(std::string_view key, std::string_view value)>& fn,
      rocksdb::WriteBatch* deletes);

  std::string path_;
  std::shared_ptr<SharedStateResources> resources_;  // outlives db_ (its cache and budget)
  std::shared_ptr<TtlRegistry> ttl_;                 // shared with the compaction filter factory
  std::unique_ptr<rocksdb::DB> db_;
  std::atomic<uint64_t> multiget_calls_{0};
  std::atomic<uint64_t> keys_read_{0};
  std::atomic<uint64_t> write_batches_{0};
  std::atomic<uint64_t> keys_written_{0};
  std::atomic<uint64_t> cache_hits_{0};
  std::atomic<uint64_t> cache_misses_{0};
};

}  // namespace eddy
