// The RocksDB side of an operator's in-memory keyed table whose memory is the authority (an
// aggregate's GroupTable): the groups a batch misses are read in one MultiGet, and the groups the
// table evicts or flushes are written in one atomic write batch, in key order. A store that
// starts empty (`filter_misses`) remembers which keys it wrote (SpilledKeyFilter), so a miss on a
// key it never wrote is answered "absent" without a RocksDB lookup. Keys follow state_key.h with
// the key group of the encoded group key (0 for the empty key of a global aggregate). Owned and
// used by one operator instance (one thread); not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "worker/state/keyed_state_backend.h"
#include "worker/state/keyed_state_table.h"
#include "worker/state/spilled_key_filter.h"

namespace eddy {

class StateSpillStore {
 public:
  // `filter_misses` is honoured only when the backend holds no state yet (else every miss is read).
  StateSpillStore(KeyedStateBackend* backend, uint32_t state_id, int max_parallelism,
                  bool filter_misses);

  uint32_t state_id() const { return state_id_; }
  KeyedStateBackend* backend() const { return backend_; }

  // Reads: ClearReads, AddRead per missed group key, ReadAll; found/value are valid until the
  // next ReadAll. AddRead returns false (and queues nothing) for a key the store never wrote.
  void ClearReads();
  bool AddRead(std::string_view group_key);
  absl::Status ReadAll();
  bool found(size_t i) const { return result_.found(i); }
  std::string_view value(size_t i) const { return result_.value(i); }

  // Writes: staged, then applied at once by WriteStaged. `written_before`: the store wrote the key
  // before (the owner read it back, or flushed it), so the spilled-key filter holds it already.
  void StagePut(std::string_view group_key, std::string_view value, bool written_before = false);
  void StageDelete(std::string_view group_key);
  absl::Status WriteStaged();

  // Removes all of this operator's state (every key group).
  absl::Status DropAll();

  // Memory of the spilled-key filter.
  size_t filter_bytes() const { return filter_on_ ? spilled_.bytes() : 0; }
  bool filters_misses() const { return filter_on_; }
  const KeyedStateTable::Stats& stats() const { return stats_; }

 private:
  // Appends the full state key of `group_key` to `arena`.
  void AppendKey(std::string_view group_key, std::string* arena) const;

  KeyedStateBackend* backend_;
  uint32_t state_id_;
  int max_parallelism_;
  bool filter_on_;
  SpilledKeyFilter spilled_;

  std::string read_arena_;
  std::vector<uint32_t> read_offsets_{0};
  std::vector<std::string_view> read_keys_;
  StateReadResult result_;

  // Staged writes: key and value bytes in one arena; value_len < 0 is a delete.
  struct Staged {
    uint32_t key_offset;
    uint32_t key_len;
    int64_t value_len;
    bool written_before;
  };
  std::string write_arena_;
  std::vector<Staged> staged_;
  std::vector<uint32_t> order_;
  StateWriteBatch writes_;
  KeyedStateTable::Stats stats_;
};

}  // namespace eddy
