// A per-operator-instance view of the KeyedStateBackend: builds full state keys from (key group,
// encoded group key) with this operator's id, stages a batch of reads for one MultiGet and a batch of
// writes for one atomic Write. Owned and used by one operator instance (one thread); not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "worker/state/keyed_state_backend.h"

namespace eddy {

class KeyedStateTable {
 public:
  struct Stats {
    uint64_t multiget_calls = 0;
    uint64_t keys_read = 0;
    uint64_t commits = 0;
    uint64_t keys_written = 0;
  };

  KeyedStateTable(KeyedStateBackend* backend, uint32_t operator_id, int max_parallelism);

  uint32_t operator_id() const { return operator_id_; }
  int max_parallelism() const { return max_parallelism_; }

  // Reads: ClearReads, AddRead for each key (returns its index), then ReadAll (one MultiGet).
  // found/value are valid until the next ClearReads.
  void ClearReads();
  size_t AddRead(int key_group, std::string_view group_key);
  absl::Status ReadAll();
  bool found(size_t i) const { return result_.found(i); }
  std::string_view value(size_t i) const { return result_.value(i); }

  // Writes are staged and applied atomically by Commit (once per input batch).
  void Put(int key_group, std::string_view group_key, std::string_view value);
  void Delete(int key_group, std::string_view group_key);
  absl::Status Commit();

  // Removes all of this operator's state (every key group).
  absl::Status DropAll();

  const Stats& stats() const { return stats_; }

 private:
  KeyedStateBackend* backend_;
  uint32_t operator_id_;
  int max_parallelism_;

  // Read keys are appended to one arena (no allocation per key once it has grown); the views are
  // built in ReadAll, after the arena stops moving.
  std::string read_arena_;
  std::vector<uint32_t> read_offsets_{0};
  std::vector<std::string_view> read_keys_;
  StateReadResult result_;

  std::string write_key_;
  StateWriteBatch writes_;
  Stats stats_;
};

}  // namespace eddy
