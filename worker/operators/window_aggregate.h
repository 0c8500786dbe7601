// WindowAggregate: GROUP BY window_start, window_end, keys over a TUMBLE/HOP/CUMULATE window TVF,
// with Flink's window-aggregate semantics: an append-only result per (window, key), emitted as +I
// once the watermark reaches the window's end - 1 (or the input ends), in window-end order and,
// within a window, in key order. A row whose every window has already fired is late: it is
// dropped and counted (late_rows_dropped).
//
// State lives in the subtask's RocksDB store, one entry per (window, key): state_key.h prefix (key
// group of the group key) | window end (8 bytes, order-preserving) | encoded group key ->
// accumulators. Per input batch the batch's distinct (window, key) pairs are read with one MultiGet
// and written with one write batch; a window's entries are read by one prefix scan per key group
// when it fires, then deleted.
//
// In front of RocksDB, open windows are kept in memory while they fit the operator's state budget
// (OperatorContext::state_cache_bytes, --state-cache-mb): their rows fold into in-memory
// accumulators (a GroupTable per window, with native accumulators where the calls allow) and they
// fire from memory, touching RocksDB not at all. When the budget is
// exceeded, whole windows move to RocksDB, the latest-ending first (they fire last), and stay
// there until they fire. The output is the same either way. A checkpoint moves every window to
// RocksDB, so that the store's snapshot and the recorded index of pending windows are the whole
// state.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/base/hash.h"
#include "worker/operators/accumulator.h"
#include "worker/operators/batch_key_index.h"
#include "worker/operators/group_table.h"
#include "worker/operators/key_encoder.h"
#include "worker/operators/native_aggregates.h"
#include "worker/operators/operator.h"
#include "worker/operators/owned_key_groups.h"
#include "worker/operators/window_assigner.h"
#include "worker/operators/window_clock.h"
#include "worker/state/keyed_state_table.h"

namespace eddy {

struct WindowAggregateSpec {
  std::vector<DataType> input_types;
  std::vector<int> group_keys;  // input columns; empty: one group per window
  std::vector<AggregateCall> aggregates;
  WindowShape window;
  int time_column = -1;  // the rowtime column (TIMESTAMP)
  WindowClock clock;     // what window_start and window_end count in
  // Also emit window_time (window_end - 1 on the clock, as an instant; the time column's type),
  // for a window aggregate grouped by window_time whose result feeds another window.
  bool window_time = false;
};

// Output: group keys, one column per call, window_start, window_end (TIMESTAMP(3) NOT NULL), then
// window_time (TIMESTAMP(3) or TIMESTAMP_LTZ(3) NOT NULL) if the spec asks for it. A fired
// window's rows go out before the watermark that fired it, so window_time is never late
// downstream.
class WindowAggregateOperator final : public Operator {
 public:
  static absl::StatusOr<std::unique_ptr<WindowAggregateOperator>> Create(WindowAggregateSpec spec);

  const std::vector<DataType>& output_types() const { return output_types_; }

  absl::Status Open(const OperatorContext& ctx) override;
  absl::Status Process(int input, const ChangelogBatch& batch) override;
  // Fires every window with end - 1 <= watermark, then passes the watermark on.
  absl::Status ProcessWatermark(const Watermark& watermark) override;
  // End of input: every remaining window fires (as Flink's final MAX watermark).
  absl::Status Finish() override;
  // Moves every window held in memory to the store (they fire from there later, with the same
  // output) and records the watermark and which key groups hold each pending window.
  absl::Status SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) override;
  // Takes back what SnapshotState recorded; the store must be the one snapshotted with it.
  absl::Status RestoreState(const OperatorSnapshot& snapshot) override;
  // The pending windows of the key groups this subtask owns, from every snapshot; the smallest
  // watermark.
  absl::Status RestoreRescaledState(std::span<const OperatorSnapshot> snapshots) override;
  // Frees the windows held in memory; the store keeps its state until the job ends.
  absl::Status Close() override;

  uint64_t late_rows_dropped() const override {
    return late_rows_dropped_.load(std::memory_order_relaxed);
  }
  // Windows holding state, not yet fired (in memory or in RocksDB).
  size_t pending_windows() const { return pending_.size() + memory_windows_.size(); }
  // Open windows held in memory, and their approximate bytes.
  size_t memory_windows() const { return memory_windows_.size(); }
  size_t memory_bytes() const { return memory_bytes_; }
  // The same, as of the last batch or watermark, for metrics (any thread).
  uint64_t state_bytes_in_memory() const override {
    return reported_memory_bytes_.load(std::memory_order_relaxed);
  }

 private:
  struct Slot {
    std::string key;  // window end (8 bytes) + encoded group key
    int key_group = 0;
    int64_t end = 0;
    GroupAccumulators acc;
  };

  WindowAggregateOperator(WindowAggregateSpec spec, KeyEncoder encoder,
                          AggregateFunctions functions);
  absl::Status ProcessRows(const ChangelogBatch& batch, size_t begin, size_t end, size_t per_row);
  // The rows' windows that live in memory: folded there; the others are left for RocksDB.
  void FoldIntoMemory(const ChangelogBatch& batch, size_t row, const std::string& group_key,
                      int64_t end);
  absl::Status SpillOverBudget() { return Spill(/*all=*/false); }
  // Moves whole windows from memory to the store, latest end first: all of them, or until within
  // the budget.
  absl::Status Spill(bool all);
  absl::Status FireFromMemory(int64_t end);
  absl::Status FireUpTo(int64_t watermark);
  absl::Status Fire(int64_t end, const std::vector<uint8_t>& key_groups);

  WindowAggregateSpec spec_;
  std::vector<DataType> output_types_;
  KeyEncoder encoder_;
  AggregateFunctions functions_;
  std::unique_ptr<KeyedStateTable> table_;
  KeyedStateBackend* backend_ = nullptr;
  uint32_t state_id_ = 0;
  int max_parallelism_ = kMaxParallelism;
  // RestoreState (every key group of the snapshots: they are this subtask's) and
  // RestoreRescaledState (those `owned` holds).
  absl::Status RestoreFrom(std::span<const OperatorSnapshot> snapshots,
                           const OwnedKeyGroups& owned);
  OwnedKeyGroups owned_;
  int64_t watermark_ = kMinWatermark;
  // Window end -> key groups (one flag each) that hold state for it in RocksDB.
  std::map<int64_t, std::vector<uint8_t>> pending_;
  // An open window held in memory: its groups in a GroupTable (group i is the window's i-th key)
  // whose payloads start with a PayloadHeader, followed by the native accumulators when every call
  // has a native form (native_), else the group's accumulators are accs[i]. A fired or spilled
  // window is kept for reuse with its memory (spare_windows_).
  struct PayloadHeader {
    int32_t key_group;
    uint32_t unused;
    uint64_t kept_bytes;  // AggregateFunctions::BytesKept of the rows folded in
  };
  struct MemoryWindow {
    explicit MemoryWindow(size_t payload_bytes) : table(payload_bytes) {}
    GroupTable table;
    std::vector<std::unique_ptr<GroupAccumulators>> accs;
    size_t bytes = 0;  // counted in memory_bytes_
  };
  MemoryWindow* WindowInMemory(int64_t end);
  // Group g's accumulators in `w` (native ones loaded into loaded_).
  const GroupAccumulators& AccumulatorsOf(MemoryWindow& w, uint32_t g);
  // Takes `w` out of memory_bytes_ and keeps it for reuse.
  void Recycle(std::unique_ptr<MemoryWindow> w);

  std::optional<NativeAggregates> native_;
  std::map<int64_t, std::unique_ptr<MemoryWindow>> memory_windows_;
  std::vector<std::unique_ptr<MemoryWindow>> spare_windows_;
  int64_t last_end_ = 0;  // the window of the last fold, looked up once per run of rows
  MemoryWindow* last_window_ = nullptr;
  GroupAccumulators loaded_;
  size_t memory_bytes_ = 0;
  std::atomic<uint64_t> reported_memory_bytes_{0};
  size_t memory_budget_ = 0;
  size_t entry_overhead_ = 0;                   // per group without native accumulators
  std::atomic<uint64_t> late_rows_dropped_{0};  // read by metrics from other threads

  // Per-batch scratch, reused.
  std::vector<std::unique_ptr<Slot>> slots_;
  size_t used_slots_ = 0;
  BatchKeyIndex slot_of_key_;
  std::vector<std::pair<uint32_t, uint32_t>> row_slots_;  // (row, slot) per assigned window
  std::vector<int64_t> ends_;
  std::string key_buf_;
  std::string group_key_;
  std::string value_buf_;
  std::vector<AggValue> values_;
  ChangelogBatch out_;
};

}  // namespace eddy
