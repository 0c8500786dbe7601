// A keyed aggregate's groups with native accumulators: a GroupTable in memory (the authority for
// the groups it holds), spilled to RocksDB through a StateSpillStore when it outgrows its budget
// and read back on a miss. The values in RocksDB are AggregateFunctions::Serialize's, the same as
// an aggregate without native accumulators writes, so checkpoints, restores and rescaling see one
// format. Per batch: Lookup gives every row its group (one MultiGet for the groups not in memory),
// the caller updates payloads in place and marks what changed, and Commit evicts down to the
// budget in one sorted write. Owned by one operator instance (one thread); not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "worker/operators/accumulator.h"
#include "worker/operators/group_table.h"
#include "worker/operators/native_aggregates.h"
#include "worker/state/keyed_state_backend.h"
#include "worker/state/state_spill_store.h"

namespace eddy {

class NativeGroupState {
 public:
  // The smallest budget for which misses consult the spilled-key filter (as KeyedStateTable).
  static constexpr size_t kSpilledKeyFilterMinBytes = size_t{16} << 20;
  // A budget of at least this many bytes evicts in batches (a sixteenth of it at once), so that
  // evicted groups reach RocksDB as one large sorted write every so many input batches.
  static constexpr size_t kBatchedEvictionMinBytes = size_t{16} << 20;

  // `functions` and `native` must outlive the state. `budget_bytes` bounds the groups in memory
  // after each Commit (0: none stay between batches). Keys up to `inline_key_bytes` live in the
  // group's record (GroupTable).
  NativeGroupState(const AggregateFunctions* functions, const NativeAggregates* native,
                   KeyedStateBackend* backend, uint32_t state_id, int max_parallelism,
                   size_t budget_bytes,
                   size_t inline_key_bytes = GroupTable::kDefaultInlineKeyBytes);

  // Sets (*groups)[r] to the group of keys[r] (hashes[r] = GroupTable::Hash(keys[r])), inserting
  // the groups not in memory: those RocksDB holds are loaded (flags kExists | kInStore), the others
  // start absent (no kExists, zeroed payload).
  absl::Status Lookup(const std::vector<std::string_view>& keys,
                      const std::vector<uint64_t>& hashes, std::vector<uint32_t>* groups);

  GroupTable& table() { return table_; }
  const GroupTable& table() const { return table_; }

  // Evicts down to the budget, writing the evicted changed groups to RocksDB in one write.
  absl::Status Commit();
  // Writes every changed group to RocksDB; they stay in memory, clean.
  absl::Status Flush();
  // Removes every group, in memory and in RocksDB.
  absl::Status DropAll();

  size_t bytes() const { return table_.bytes(); }
  // RocksDB reads and writes, and lookups answered from memory (cache_hits).
  KeyedStateTable::Stats stats() const {
    KeyedStateTable::Stats s = store_.stats();
    s.cache_hits = hits_;
    return s;
  }
  uint32_t state_id() const { return store_.state_id(); }

 private:
  // Stages group g's change for RocksDB (a put of its serialized accumulators, or a delete).
  void StageWriteBack(uint32_t g);

  const AggregateFunctions* functions_;
  const NativeAggregates* native_;
  GroupTable table_;
  StateSpillStore store_;
  size_t budget_bytes_;
  uint64_t hits_ = 0;
  std::vector<uint32_t> missed_;  // groups inserted by this Lookup that RocksDB may hold
  GroupAccumulators scratch_;
  std::string value_buf_;
};

}  // namespace eddy
