// OverAggregate: event-time OVER aggregation (agg(x) OVER (PARTITION BY ... ORDER BY rowtime
// {ROWS|RANGE} BETWEEN ... PRECEDING AND CURRENT ROW)), with the semantics of Flink's event-time
// over functions (bounded and unbounded, ROWS and RANGE) and each partition's rows and
// accumulators in the subtask's RocksDB store. Per input batch each partition's state is read
// once (state cache, then one MultiGet) and written once; a watermark fires the partitions it
// reaches, a few thousand per MultiGet, and emits their rows in batches.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/base/hash.h"
#include "common/batch/changelog_batch.h"
#include "worker/operators/accumulator.h"
#include "worker/operators/batch_key_index.h"
#include "worker/operators/join_common.h"
#include "worker/operators/key_encoder.h"
#include "worker/operators/operator.h"
#include "worker/operators/over_partition_state.h"
#include "worker/operators/owned_key_groups.h"
#include "worker/state/keyed_state_table.h"

namespace eddy {

enum class OverFrame {
  kRows,   // the current row and `preceding` rows before it, by (time, arrival)
  kRange,  // the rows whose time is in [current time - preceding, current time]
};

// `preceding` of an UNBOUNDED PRECEDING frame.
inline constexpr int64_t kUnboundedPreceding = -1;

struct OverAggregateSpec {
  std::vector<DataType> input_types;
  // Input columns; empty: one partition (key group 0; the planner runs it at parallelism 1).
  std::vector<int> partition_keys;
  // The input's rowtime attribute, the ORDER BY: a TIMESTAMP(p <= 3) column (epoch millis) whose
  // values are never NULL.
  int time_column = 0;
  OverFrame frame = OverFrame::kRange;
  // Rows (ROWS) or milliseconds (RANGE) before the current row, >= 0; or kUnboundedPreceding.
  int64_t preceding = kUnboundedPreceding;
  // COUNT(*), COUNT, SUM, AVG, MIN, MAX, FIRST_VALUE, LAST_VALUE, LISTAGG (DISTINCT too) over
  // input columns; a frame's rows are accumulated in (time, arrival) order.
  std::vector<AggregateCall> calls;
  // table.exec.state.ttl: Flink's idle-state retention of ROWS and unbounded frames (see below);
  // a bounded RANGE frame ignores it, as Flink's does. 0 (or 1): off. Time comes from the state
  // backend's clock.
  int64_t state_ttl_ms = 0;
};

// Output schema: the input columns, then one column per call (its result type). Every row is +I.
//
// The input must be insert-only (+I rows; anything else is an error). A row is kept in state until
// the watermark passes its time, then emitted once with the aggregates over its frame appended.
// A partition's rows are emitted in time order, rows with equal times in arrival order; every row
// a watermark fires is emitted before the watermark is passed on. A watermark fires partition by
// partition, in the order of their earliest due timers (Flink interleaves partitions by time; only
// the order within a partition is defined). Finish fires every waiting row.
// Per frame, as Flink (W is the operator's watermark, p the `preceding` value):
//
// UNBOUNDED PRECEDING. A row with time <= W is late: dropped and counted (late_rows_dropped). A
// waiting row fires at the first watermark W >= max(time, 0) (Flink's per-partition timer is never
// set below 0). The accumulators grow forever; state holds them and the waiting rows.
//   RANGE: the rows of one time are accumulated together and all get the same values (peers).
//   ROWS: each row is accumulated, then emitted, so that peers get different values.
//
// BOUNDED (p >= 0). Lateness is decided per partition, against the time of the last timer the
// partition fired (0 before any, so rows at or before 1970-01-01 00:00:00.000 are always late): a
// row with a time at or before it is late (dropped and counted). A later row is kept even when its
// time <= W and fires at the next watermark. Each partition has a data timer at every time with
// waiting rows; a watermark fires a partition's timers at or below it in time order, each setting
// the last-fired time to its time.
//   RANGE p ms: when time t fires, the fired rows with time < t - p leave the frame (retracted and
//     dropped from state), then the rows at t are accumulated and all emitted with the same
//     values: the frame is every row with time in [t - p, t]. Cleanup, as Flink's: each kept row
//     at t sets the partition's cleanup time to t + floor(1.5 p) + 1 (registering a cleanup timer
//     there) unless it already is >= t + p + 1; superseded cleanup timers still fire (setting the
//     last-fired time). A timer at or after the cleanup time drops the partition's whole state,
//     last-fired time included, so that a later row starts from nothing.
//   ROWS p rows: each row fired, in (time, arrival) order, retracts the oldest fired row once
//     p + 1 are kept (dropping it from state), then is accumulated and emitted: its frame is itself
//     and the p rows before it. State keeps the last p + 1 fired rows, the accumulators and the
//     last-fired time; nothing else expires (Flink's ROWS function has no event-time cleanup).
//
// State retention (state_ttl_ms = T > 1; ROWS frames and unbounded RANGE only), as Flink's
// cleanup timers: every input row of a partition (late ones too) and every firing of its timers
// sets its retention timer to now + T * 3 / 2 unless it is already after now + T. When the timer
// fires (checked on the driver's ticks): a partition with rows waiting for the watermark keeps its
// state and its timer moves to now + T * 3 / 2; any other partition's state is dropped (rows,
// accumulators, last-fired time), so that its next row starts from nothing. Nothing is emitted.
//
// State: one value per partition: key = state_key.h prefix (key group = KeyGroupOf of the
// partition key's KeyEncoder bytes, as the hash partitioner computes it, or 0 for the empty key) +
// those bytes; value = OverPartitionState (rows as KeyEncoder bytes over all input columns,
// accumulators as AggregateFunctions::Serialize). Timers: two in-memory ordered sets with one
// entry per partition: event time, for a partition with something due, at its earliest waiting
// row's time (unbounded: not below 0) or earliest cleanup timer, whichever comes first; processing
// time, at its retention timer (with retention). SnapshotState records both with the watermark,
// RestoreState takes them back.
class OverAggregateOperator : public Operator {
 public:
  // Validates the spec (columns, the time column's type, the frame, the calls).
  static absl::StatusOr<std::unique_ptr<OverAggregateOperator>> Create(OverAggregateSpec spec);

  const OverAggregateSpec& spec() const { return spec_; }
  const std::vector<DataType>& output_types() const { return output_types_; }

  // Requires ctx.state; uses ctx.state_id and ctx.max_parallelism for state keys.
  absl::Status Open(const OperatorContext& ctx) override;
  absl::Status Process(int input, const ChangelogBatch& batch) override;
  // Fires every partition with timers at or below the watermark, then passes it on.
  absl::Status ProcessWatermark(const Watermark& watermark) override;
  // End of input: every waiting row fires (as Flink's final watermark).
  absl::Status Finish() override;
  // With state retention: fires the retention timers due on the state backend's clock.
  absl::Status OnTick(std::chrono::steady_clock::time_point now) override;
  // Writes the state cache back to the store and records the watermark and the timers; emits
  // nothing.
  absl::Status SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) override;
  // Takes back what SnapshotState recorded; the store must be the one snapshotted with it.
  absl::Status RestoreState(const OperatorSnapshot& snapshot) override;
  // The timers of the key groups this subtask owns, from every snapshot; the smallest watermark.
  absl::Status RestoreRescaledState(std::span<const OperatorSnapshot> snapshots) override;
  // Frees the state cache and the timers held in memory; the state stays in the store.
  absl::Status Close() override;

  // Writes every change held in the state cache to RocksDB (for checkpoints and tests).
  absl::Status FlushState();

  uint64_t late_rows_dropped() const override {
    return late_rows_dropped_.load(std::memory_order_relaxed);
  }
  // The state cache's bytes and the timers', as of the last batch or watermark.
  uint64_t state_bytes_in_memory() const override {
    return memory_bytes_.load(std::memory_order_relaxed);
  }

  // Reads/writes made so far, for tests and metrics; null before Open.
  const KeyedStateTable* state_table() const { return table_.get(); }
  // Partitions with a timer (rows waiting, or a cleanup timer).
  size_t pending_timers() const { return timers_.size(); }
  // Partitions with a retention timer.
  size_t retention_timers() const { return retention_timers_.size(); }
  int64_t current_watermark() const { return watermark_; }

 private:
  // One distinct partition of the current batch or timer round. Slots are reused so that their
  // buffers are.
  struct Slot {
    std::string_view key;  // partition key bytes
    int key_group = 0;
    size_t read = 0;
    bool found = false;
    bool dirty = false;
    std::optional<int64_t> old_timer;      // the partition's timer as read (none once popped)
    std::optional<int64_t> old_retention;  // its retention timer as read (none once popped)
    OverPartitionState state;
    GroupAccumulators acc;  // decoded when the partition fires
    std::string acc_bytes;  // its encoding after firing
  };

  // Per input row.
  struct RowInfo {
    bool late = false;
    int64_t time = 0;
    uint32_t slot = 0;
    uint32_t key_begin = 0, key_end = 0;  // partition key bytes in encodings_
    uint32_t row_begin = 0, row_end = 0;  // row bytes in encodings_
  };

  // In firing order: time, then partition.
  struct Timer : JoinTimer {
    bool operator<(const Timer& o) const {
      if (time != o.time) return time < o.time;
      if (key_group != o.key_group) return key_group < o.key_group;
      return key < o.key;
    }
  };

  OverAggregateOperator(OverAggregateSpec spec, KeyEncoder partition, KeyEncoder row,
                        AggregateFunctions functions);

  bool bounded() const { return spec_.preceding != kUnboundedPreceding; }
  bool rows_frame() const { return spec_.frame == OverFrame::kRows; }
  // Flink's idle-state retention applies (ROWS or unbounded frames, a TTL above 1 ms).
  bool retention() const { return spec_.state_ttl_ms > 1 && (rows_frame() || !bounded()); }

  Slot* AcquireSlot();
  uint32_t SlotFor(std::string_view key);
  // Reads and decodes the slots' values.
  absl::Status ReadSlots();
  // Encodes the dirty slots, writes them (or erases the emptied ones) and moves their timers.
  void WriteSlots();
  // When the partition's next timer is due; none when nothing is.
  std::optional<int64_t> DueTime(const OverPartitionState& state) const;
  // Replaces the timer of `s` at `old_time` in `timers` by one at `new_time` (either may be
  // absent).
  void MoveTimer(std::set<Timer>& timers, const Slot& s, std::optional<int64_t> old_time,
                 std::optional<int64_t> new_time);
  // Flink's registration of a retention timer at processing time `now`.
  void RegisterRetention(Slot& s, int64_t now) const;
  // Fires the retention timers at or before `now`.
  absl::Status ExpireIdlePartitions(int64_t now);
  // Fires every timer at or below `watermark`.
  absl::Status FireUpTo(int64_t watermark);
  // Fires one partition's timers at or below `watermark`, emitting its rows.
  absl::Status FirePartition(Slot& s, int64_t watermark);
  absl::Status FireUnbounded(Slot& s, int64_t watermark);
  absl::Status FireBounded(Slot& s, int64_t watermark);
  // Decodes a stored row into decoded_ and returns its index there.
  absl::StatusOr<size_t> DecodeRow(std::string_view row);
  // Appends decoded_ row `row` with the current values_ to the output (emitted once full).
  absl::Status EmitRow(size_t row);
  void ReportMemory();

  OverAggregateSpec spec_;
  KeyEncoder partition_;
  KeyEncoder row_;
  AggregateFunctions functions_;
  std::vector<DataType> output_types_;
  std::unique_ptr<KeyedStateTable> table_;
  KeyedStateBackend* backend_ = nullptr;  // its clock is the retention's processing time
  int max_parallelism_ = kMaxParallelism;
  // RestoreState (every key group of the snapshots: they are this subtask's) and
  // RestoreRescaledState (those `owned` holds).
  absl::Status RestoreFrom(std::span<const OperatorSnapshot> snapshots,
                           const OwnedKeyGroups& owned);
  OwnedKeyGroups owned_;  // the key groups of this subtask

  int64_t watermark_ = kMinWatermark;
  std::set<Timer> timers_;
  std::set<Timer> retention_timers_;  // processing time
  size_t timer_bytes_ = 0;            // approximate memory of timers_
  std::atomic<uint64_t> late_rows_dropped_{0};
  std::atomic<uint64_t> memory_bytes_{0};

  // Per-batch scratch, reused.
  std::string encodings_;
  std::vector<RowInfo> rows_;
  std::vector<std::unique_ptr<Slot>> slots_;
  size_t used_slots_ = 0;
  BatchKeyIndex slot_of_key_;
  std::vector<Timer> due_;
  std::string write_arena_;
  std::vector<size_t> write_ends_;
  ChangelogBatch decoded_;  // stored rows being retracted, accumulated or emitted
  std::vector<AggValue> values_;
  ChangelogBatch out_;
};

}  // namespace eddy
