// An operator subtask's view of its KeyedStateBackend: builds full state keys from (key group,
// encoded group key) with the operator's state id, serves a batch of reads from its StateCache and
// one MultiGet for the misses, and writes changes back to RocksDB in one atomic write per batch
// (the cache's evictions; all changes when the cache is off). A table with a large cache
// (kSpilledKeyFilterMinCacheBytes) that starts on an empty store remembers which keys it wrote
// there (SpilledKeyFilter, charged to the cache's budget), so a miss on a key it never wrote is
// answered "absent" without a RocksDB lookup; on a store that already holds state (a restore)
// every miss is looked up. Owned and used by one operator instance (one thread); not
// thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "worker/state/keyed_state_backend.h"
#include "worker/state/spilled_key_filter.h"
#include "worker/state/state_cache.h"

namespace eddy {

class KeyedStateTable {
 public:
  // The smallest cache for which misses consult the spilled-key filter (whose first layer takes
  // 80 KiB; with a small cache few keys are spilled and lookups are cheap anyway).
  static constexpr size_t kSpilledKeyFilterMinCacheBytes = size_t{16} << 20;

  struct Stats {
    uint64_t multiget_calls = 0;
    uint64_t keys_read = 0;      // looked up in RocksDB (cache misses)
    uint64_t keys_filtered = 0;  // cache misses answered "absent" by the spilled-key filter
    uint64_t cache_hits = 0;
    uint64_t commits = 0;       // write batches applied to RocksDB
    uint64_t keys_written = 0;  // puts + deletes applied to RocksDB
  };

  // `cache_bytes` bounds the StateCache (0: no caching between batches, every change of a batch
  // is written at its Commit). `ttl_ms` > 0: state TTL (see kStateTtlHeaderSize); a value not
  // written for that long reads as absent, whether it comes from the cache or from RocksDB, an
  // expired change is never written back (a delete instead), and the backend's compaction filter
  // drops expired values from RocksDB.
  KeyedStateTable(KeyedStateBackend* backend, uint32_t state_id, int max_parallelism,
                  size_t cache_bytes = 0, int64_t ttl_ms = 0);
  ~KeyedStateTable();

  uint32_t state_id() const { return state_id_; }
  int max_parallelism() const { return max_parallelism_; }
  int64_t ttl_ms() const { return ttl_ms_; }

  // Reads: ClearReads, AddRead for each key (returns its index), then ReadAll (cache, then one
  // MultiGet for the misses). found/value are valid until the next Put, Delete or Commit. With a
  // TTL, "now" is taken once per ReadAll and stamps the batch's writes.
  void ClearReads();
  size_t AddRead(int key_group, std::string_view group_key);
  absl::Status ReadAll();
  bool found(size_t i) const {
    const StateCache::Entry& e = cache_.entry(read_entries_[i]);
    return e.present && (ttl_ms_ <= 0 || !TtlExpired(e.value, ttl_ms_, now_ms_));
  }
  std::string_view value(size_t i) const {
    std::string_view v = cache_.entry(read_entries_[i]).value;
    return ttl_ms_ > 0 ? v.substr(kStateTtlHeaderSize) : v;
  }

  // Changes go to the cache; Commit (once per input batch) trims it to its budget and applies the
  // evicted changes to RocksDB atomically.
  void Put(int key_group, std::string_view group_key, std::string_view value);
  void Delete(int key_group, std::string_view group_key);
  // The same for the key of read `i` of the current batch (no second lookup).
  void Update(size_t i, std::string_view value) { cache_.Set(read_entries_[i], Stamped(value)); }
  void Erase(size_t i) { cache_.Remove(read_entries_[i]); }
  // Hints that read `i`'s entry is about to be updated (its cache lines are fetched ahead).
  void Prefetch(size_t i) const { cache_.Prefetch(read_entries_[i]); }
  absl::Status Commit();
  // Writes every cached change to RocksDB (the cache keeps its entries, now clean).
  absl::Status Flush();

  // Removes all of this operator's state (every key group), cached or not.
  absl::Status DropAll();

  const Stats& stats() const { return stats_; }
  const StateCache& cache() const { return cache_; }
  // Whether misses consult the spilled-key filter (the store was empty when the table started).
  bool filters_misses() const { return filter_on_; }

 private:
  uint32_t EntryFor(std::string_view state_key);
  // `value` with the TTL timestamp in front (when there is a TTL).
  std::string_view Stamped(std::string_view value);
  void Stage(const StateCache::WriteBack& w);  // into writes_
  // Stages write_backs_ in key order and applies them.
  absl::Status WriteStaged();

  KeyedStateBackend* backend_;
  uint32_t state_id_;
  int max_parallelism_;
  StateCache cache_;
  int64_t ttl_ms_;
  int64_t now_ms_ = 0;
  std::string stamped_;

  // Read keys are appended to one arena (no allocation per key once it has grown); the views are
  // built in ReadAll, after the arena stops moving.
  std::string read_arena_;
  std::vector<uint32_t> read_offsets_{0};
  std::vector<std::string_view> read_keys_;
  std::vector<uint32_t> read_entries_;  // cache entry of each read
  std::vector<std::string_view> miss_keys_;
  std::vector<uint32_t> miss_reads_;
  StateReadResult result_;

  // Keys this table put into RocksDB; valid only when filter_on_.
  bool filter_on_ = false;
  SpilledKeyFilter spilled_;

  std::string write_key_;
  std::vector<StateCache::WriteBack> write_backs_;  // of one Commit or Flush
  StateWriteBatch writes_;
  Stats stats_;
};

}  // namespace eddy
