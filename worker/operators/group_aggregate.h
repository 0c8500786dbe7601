// GroupAggregate: non-windowed GROUP BY over a changelog, with Flink's non-mini-batch
// GroupAggFunction semantics (row by row, in input order) and state in the subtask's RocksDB store.
// Per input batch: the batch's distinct keys are read once (from the state cache, and one MultiGet
// for the misses), updated in memory, written once (to the cache; evictions reach RocksDB in one
// write batch), and one output batch is emitted.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/base/hash.h"
#include "common/batch/changelog_batch.h"
#include "worker/operators/accumulator.h"
#include "worker/operators/batch_group_index.h"
#include "worker/operators/batch_key_index.h"
#include "worker/operators/key_encoder.h"
#include "worker/operators/native_aggregates.h"
#include "worker/operators/native_group_state.h"
#include "worker/operators/operator.h"
#include "worker/state/keyed_state_table.h"
#include "worker/state/state_key.h"

namespace eddy {

struct GroupAggregateSpec {
  std::vector<DataType> input_types;
  std::vector<int> group_keys;  // input column indices; empty = global aggregate
  std::vector<AggregateCall> aggregates;
  // Emit -U before each +U. True when downstream needs retractions (print sink, nested aggregate);
  // false for upsert consumers (blackhole, sinks keyed on the group key).
  bool generate_update_before = true;
  // The input carries only +I rows (planner's changelog mode [I]): MIN/MAX then keep only the
  // extreme instead of a multiset, FIRST_VALUE/LAST_VALUE one value and LISTAGG the joined string
  // instead of every value. A retraction row is an error in this mode.
  bool input_insert_only = false;
  // Mini-batch: buffer input until this many rows arrived (or the oldest waited
  // mini_batch_latency_ms), then fold each key's changes into one update: one state read and
  // write, and at most one -U/+U pair (or +I, or -D) per key. 0: row by row.
  int mini_batch_size = 0;
  int64_t mini_batch_latency_ms = 0;
  // GlobalGroupAggregate of a two-phase aggregation: the input rows (all +I) are a
  // LocalGroupAggregate's partial accumulators (AggPartialFields), merged instead of accumulated.
  // `aggregates[i].arg` is then the first partial column of call i (arg_type stays the original
  // argument's type), `input_insert_only` = false means the partials are signed deltas of a
  // retracting input, and `partial_row_count_column` holds each partial's row-count delta (-1: a
  // partial counts as one row). Each input batch is folded as one mini-batch, whatever
  // mini_batch_size says. The output and state are those of the one-phase aggregate.
  bool merge_partials = false;
  int partial_row_count_column = -1;
  // State TTL (table.exec.state.ttl), as Flink's with OnCreateAndWrite / NeverReturnExpired: a
  // group whose state was not written for this long is gone; its next row starts a new group
  // (+I), and a retraction for it is ignored. No -D is emitted when state expires. 0: forever.
  // Time comes from the state backend's clock.
  int64_t state_ttl_ms = 0;
  // Native accumulators (NativeGroupState) where the calls allow them; false keeps serialized
  // accumulators in a KeyedStateTable whatever the calls (tests and benchmarks compare the two).
  bool allow_native_state = true;
};

// Output schema: the group key columns (input types) followed by one column per aggregate call.
//
// Per row, as Flink: +I/+U accumulate and -U/-D retract into the group's accumulators and row count
// (a retraction for a group without state is ignored). If the row count drops to 0 the group's
// previous result is emitted as -D and its state removed. Otherwise a new group emits +I; an
// existing group whose result changed emits -U(previous) (only with generate_update_before) and
// +U(new); an unchanged result emits nothing.
//
// State: key = state_key.h prefix (key group = KeyGroupOf(encoded key), or 0 for the empty key of
// a global aggregate, which subtask 0 owns at any parallelism) + KeyEncoder bytes; value =
// AggregateFunctions::Serialize. When every call has a native form (NativeAggregates) and there is
// no state TTL and no merging of partials, the groups live in a NativeGroupState (accumulators
// updated in place in an open-addressing table, serialized only when spilled or checkpointed);
// otherwise in a KeyedStateTable (serialized values in a StateCache). Both write the same bytes.
class GroupAggregateOperator : public Operator {
 public:
  // Validates the spec (column indices, argument and result types).
  static absl::StatusOr<std::unique_ptr<GroupAggregateOperator>> Create(GroupAggregateSpec spec);

  const GroupAggregateSpec& spec() const { return spec_; }
  const std::vector<DataType>& output_types() const { return output_types_; }

  // Requires ctx.state; uses ctx.state_id and ctx.max_parallelism for state keys.
  absl::Status Open(const OperatorContext& ctx) override;
  absl::Status Process(int input, const ChangelogBatch& batch) override;
  // Mini-batch: flushes the buffer once its oldest row is old enough; at the end, what is left.
  absl::Status OnTick(std::chrono::steady_clock::time_point now) override;
  absl::Status Finish() override;
  // Checkpoints: the mini-batch is flushed before the barrier, the state cache written back to the
  // store at the snapshot.
  absl::Status PrepareSnapshotPreBarrier(int64_t checkpoint_id) override;
  absl::Status SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) override;
  // Frees the state cache; the state itself stays in the store until the job ends.
  absl::Status Close() override;

  // Writes every change held in the state cache to RocksDB (for checkpoints and tests).
  absl::Status FlushState();

  uint64_t state_bytes_in_memory() const override {
    return memory_bytes_.load(std::memory_order_relaxed);
  }

  // Whether the groups live in a NativeGroupState (see above).
  bool uses_native_state() const { return native_.has_value(); }
  // The operator's state id (after Open).
  uint32_t state_id() const { return state_id_; }
  // RocksDB reads and writes made so far, for tests and metrics (after Open).
  KeyedStateTable::Stats state_stats() const {
    return native_state_ != nullptr ? native_state_->stats() : table_->stats();
  }
  // Groups evicted from memory to RocksDB so far (after Open).
  uint64_t state_evictions() const {
    return native_state_ != nullptr ? native_state_->table().evictions()
                                    : table_->cache().evictions();
  }

 private:
  // One distinct key of the current batch. Slots are reused across batches so their buffers
  // (key bytes, accumulators, results) are allocated once.
  struct Slot {
    std::string key;
    int key_group = 0;
    bool in_state = false;  // found by this batch's MultiGet
    bool exists = false;    // group currently alive (row count > 0)
    bool dirty = false;
    size_t first_row = 0;  // the batch row that created the slot (its group key values)
    GroupAccumulators acc;
    std::vector<AggValue> result;  // current result while exists
  };

  explicit GroupAggregateOperator(GroupAggregateSpec spec, KeyEncoder encoder,
                                  AggregateFunctions functions);

  Slot* AcquireSlot();
  // Reads the state of `batch`'s keys, applies its rows and writes the state back. Row by row
  // emits each row's change; `fold` emits one change per key for the whole batch (mini-batch).
  absl::Status Apply(const ChangelogBatch& batch, bool fold);
  // Apply over a NativeGroupState (group_aggregate_native.cc): the same rows emitted, the same
  // state written.
  absl::Status ApplyNative(const ChangelogBatch& batch, bool fold);
  // Every row's encoded key into key_arena_/key_offsets_.
  void EncodeKeys(const ChangelogBatch& batch);
  absl::Status FlushMiniBatch();
  void EmitRow(const ChangelogBatch& in, size_t row, RowKind kind,
               const std::vector<AggValue>& values);

  GroupAggregateSpec spec_;
  std::vector<DataType> output_types_;
  KeyEncoder encoder_;
  AggregateFunctions functions_;
  std::unique_ptr<KeyedStateTable> table_;
  int max_parallelism_ = kMaxParallelism;
  uint32_t state_id_ = 0;

  // Native state (when native_ has a value): the groups, and per batch the groups the rows touch in
  // first-appearance order (touched_of_: a group's index there during the batch).
  std::optional<NativeAggregates> native_;
  std::unique_ptr<NativeGroupState> native_state_;
  struct Touched {
    uint32_t group = 0;
    size_t first_row = 0;
    bool existed = false;  // alive before the batch
    bool dirty = false;
    std::vector<AggValue> result;  // current result while alive
  };
  std::vector<Touched> touched_;
  size_t used_touched_ = 0;
  BatchGroupIndex touched_of_;
  std::vector<std::string_view> row_keys_;
  std::vector<uint32_t> row_group_;
  GroupAccumulators loaded_;  // a payload loaded for evaluation

  // Per-batch scratch, reused.
  std::vector<std::unique_ptr<Slot>> slots_;
  size_t used_slots_ = 0;
  BatchKeyIndex slot_of_key_;  // views into Slot::key
  std::vector<uint32_t> row_slot_;
  // The encoded key of each row of the batch (key_arena_ from key_offsets_[r] to [r + 1]) and
  // its BatchKeyIndex hash.
  std::string_view RowKey(size_t r) const {
    return std::string_view(key_arena_)
        .substr(key_offsets_[r], key_offsets_[r + 1] - key_offsets_[r]);
  }
  std::string key_arena_;
  std::vector<uint32_t> key_offsets_;
  std::vector<uint64_t> key_hashes_;
  std::string value_buf_;
  std::vector<AggValue> scratch_;
  ChangelogBatch out_;

  std::atomic<uint64_t> memory_bytes_{0};  // the state cache's, after each batch

  // Mini-batch buffer and when its first row arrived.
  ChangelogBatch pending_;
  std::chrono::steady_clock::time_point pending_since_;
};

}  // namespace eddy
