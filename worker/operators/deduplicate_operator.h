// Deduplicate: keeps one row per key by event time, the first (ROW_NUMBER() OVER (PARTITION BY
// keys ORDER BY rowtime ASC) = 1) or the last (... DESC), with Flink's row-time deduplication
// semantics (non-mini-batch) and each key's kept row in the subtask's RocksDB store. Per input
// batch: each key's state is read once (state cache, then one MultiGet), the rows are applied in
// input order in memory, each changed key is written once, and one output batch is emitted.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/base/hash.h"
#include "common/batch/changelog_batch.h"
#include "worker/operators/batch_key_index.h"
#include "worker/operators/key_encoder.h"
#include "worker/operators/operator.h"
#include "worker/state/keyed_state_table.h"

namespace eddy {

struct DeduplicateSpec {
  std::vector<DataType> input_types;
  // Input columns; empty: one key (key group 0; the planner runs it at parallelism 1).
  std::vector<int> keys;
  // The input's rowtime attribute: a TIMESTAMP(3) column whose values are never NULL.
  int time_column = 0;
  bool keep_last_row = false;
  // Emit -U (the replaced row) before each +U.
  bool generate_update_before = true;
  // State TTL (table.exec.state.ttl), as Flink's with OnCreateAndWrite / NeverReturnExpired: a key
  // whose kept row was not written for this long is gone, and its next row is a first row again
  // (+I). Nothing is emitted when state expires. 0: forever. Time comes from the state backend's
  // clock.
  int64_t state_ttl_ms = 0;
};

// Output schema: the input's.
//
// The input must be insert-only (+I rows; anything else is an error). Per row, in input order, as
// Flink: the first row of a key is kept and emitted as +I. A later row replaces the kept one when
// its rowtime is strictly smaller (keep-first) or greater or equal (keep-last); a replacement
// emits -U of the kept row (only with generate_update_before), then +U of the new one. A row that
// does not replace the kept one emits nothing.
//
// State: one value per key: key = state_key.h prefix (key group = KeyGroupOf of the key's
// KeyEncoder bytes, as the hash partitioner computes it, or 0 for the empty key) + those bytes;
// value = the kept row's rowtime (8 bytes, little-endian) followed by its KeyEncoder bytes over all
// input columns.
class DeduplicateOperator : public Operator {
 public:
  // Validates the spec (key and time columns, the time column's type).
  static absl::StatusOr<std::unique_ptr<DeduplicateOperator>> Create(DeduplicateSpec spec);

  const DeduplicateSpec& spec() const { return spec_; }
  const std::vector<DataType>& output_types() const { return spec_.input_types; }

  // Requires ctx.state; uses ctx.state_id and ctx.max_parallelism for state keys.
  absl::Status Open(const OperatorContext& ctx) override;
  absl::Status Process(int input, const ChangelogBatch& batch) override;
  // Writes the state cache back to the store; records nothing else.
  absl::Status SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) override;
  // Frees the state cache; the state itself stays in the store until the job ends.
  absl::Status Close() override;

  // Writes every change held in the state cache to RocksDB (for checkpoints and tests).
  absl::Status FlushState();

  uint64_t state_bytes_in_memory() const override {
    return memory_bytes_.load(std::memory_order_relaxed);
  }

  // Reads/writes made so far, for tests and metrics; null before Open.
  const KeyedStateTable* state_table() const { return table_.get(); }

 private:
  // One distinct key of the current batch.
  struct Slot {
    std::string_view key;  // a view into keys_
    int key_group = 0;
    size_t read = 0;
    bool found = false;    // held a kept row before the batch
    bool changed = false;  // kept row replaced by the batch
    bool has_row = false;  // a row is kept
    int64_t rowtime = 0;   // of the kept row
    // The kept row: its encoding from the state value (a view), or the batch row that replaced it.
    std::string_view stored;
    size_t batch_row = 0;
  };

  DeduplicateOperator(DeduplicateSpec spec, KeyEncoder key, KeyEncoder row);

  Slot* AcquireSlot();
  absl::Status ReadSlots(const ChangelogBatch& batch);
  // Emits the kept row of `s` as -U.
  absl::Status EmitKept(const ChangelogBatch& batch, const Slot& s);
  void WriteSlots(const ChangelogBatch& batch);

  DeduplicateSpec spec_;
  KeyEncoder key_;
  KeyEncoder row_;
  std::unique_ptr<KeyedStateTable> table_;
  std::atomic<uint64_t> memory_bytes_{0};  // the state cache's, after each batch
  int max_parallelism_ = kMaxParallelism;

  // Per-batch scratch, reused.
  std::string keys_;
  std::vector<uint32_t> key_ends_;
  std::vector<std::unique_ptr<Slot>> slots_;
  size_t used_slots_ = 0;
  BatchKeyIndex slot_of_key_;
  std::vector<uint32_t> row_slot_;
  std::string write_arena_;
  std::vector<size_t> write_ends_;
  ChangelogBatch out_;
};

}  // namespace eddy
