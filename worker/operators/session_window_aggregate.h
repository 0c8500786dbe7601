// SessionWindowAggregate: GROUP BY window_start, window_end, keys over a SESSION window TVF (and
// the legacy GROUP BY SESSION(ts, gap)), as Flink's session windows. Input: insert-only rows with
// a rowtime column (TIMESTAMP(3), never NULL). Per key, a row at t brings the window
// [t, t + gap_ms); it merges with every open session of its key it intersects, touching included,
// so rows at most gap_ms apart share a session and a row can bridge two sessions into one (their
// accumulators merge). A session fires once the watermark reaches its end - 1 (or the input ends):
// one +I row of group keys, one column per call, window_start, window_end (TIMESTAMP(3) NOT NULL),
// and its state is freed. Output order: session end, then key (key group, then encoded key bytes,
// as a WindowAggregate orders keys). The watermark is passed on after the rows it fires.
//
// Late rows, as Flink's merging window operator: a row is dropped and counted
// (late_rows_dropped) when the session it would end up in after merging is already late
// (end - 1 <= watermark); a row whose own window is late but that merges into an open session is
// kept (the session's start moves back).
//
// State: one value per key in the subtask's RocksDB store (through a KeyedStateTable with the
// operator's cache budget): the key's open sessions with their accumulators (SessionList). Per
// input batch each key's value is read once (one MultiGet for the misses) and written once; the
// rows fold in input order. Timers live in memory, one per (session end, key); a merge moves the
// merged sessions' timers to the merged end. SnapshotState writes the cached state to the store
// and records the watermark and every pending timer; RestoreState takes them back, so a restored
// instance fires exactly the sessions that had not fired.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "absl/status/statusor.h"
#include "common/base/hash.h"
#include "worker/operators/accumulator.h"
#include "worker/operators/batch_key_index.h"
#include "worker/operators/key_encoder.h"
#include "worker/operators/operator.h"
#include "worker/operators/owned_key_groups.h"
#include "worker/operators/session_list.h"
#include "worker/operators/window_clock.h"
#include "worker/state/keyed_state_table.h"

namespace eddy {

struct SessionWindowAggregateSpec {
  std::vector<DataType> input_types;
  std::vector<int> group_keys;  // input columns; empty: one session sequence for all rows
  std::vector<AggregateCall> aggregates;
  int time_column = -1;  // the rowtime column (TIMESTAMP)
  int64_t gap_ms = 0;    // > 0
  WindowClock clock;     // what sessions count in
  // Also emit window_time (window_end - 1 on the clock, as an instant; the time column's type),
  // for a session aggregate grouped by window_time whose result feeds another window.
  bool window_time = false;
};

class SessionWindowAggregateOperator final : public Operator {
 public:
  // Checks the gap, the time column, the key columns and the calls.
  static absl::StatusOr<std::unique_ptr<SessionWindowAggregateOperator>> Create(
      SessionWindowAggregateSpec spec);

  const SessionWindowAggregateSpec& spec() const { return spec_; }
  // Group keys, one column per call, window_start, window_end (TIMESTAMP(3) NOT NULL), then
  // window_time if the spec asks for it.
  const std::vector<DataType>& output_types() const { return output_types_; }

  absl::Status Open(const OperatorContext& ctx) override;
  absl::Status Process(int input, const ChangelogBatch& batch) override;
  // Fires every session with end - 1 <= watermark, then passes the watermark on.
  absl::Status ProcessWatermark(const Watermark& watermark) override;
  // End of input: every open session fires (as Flink's final MAX watermark).
  absl::Status Finish() override;
  // Writes cached state to the store; records the watermark and the pending timers.
  absl::Status SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) override;
  // Takes back what SnapshotState recorded; the store must be the one snapshotted with it.
  absl::Status RestoreState(const OperatorSnapshot& snapshot) override;
  // The pending sessions of the key groups this subtask owns, from every snapshot; the smallest
  // watermark.
  absl::Status RestoreRescaledState(std::span<const OperatorSnapshot> snapshots) override;
  absl::Status Close() override;

  uint64_t late_rows_dropped() const override {
    return late_rows_dropped_.load(std::memory_order_relaxed);
  }
  // The state cache's bytes plus the timers', as of the last batch or watermark.
  uint64_t state_bytes_in_memory() const override {
    return reported_memory_bytes_.load(std::memory_order_relaxed);
  }
  // Sessions not yet fired (one timer each).
  size_t pending_sessions() const { return timers_.size(); }

 private:
  // A pending session: (end, key group, encoded group key).
  using Timer = std::tuple<int64_t, int, std::string>;
  // One distinct key of a batch (or of a firing round) and its sessions.
  struct Slot {
    std::string key;
    int key_group = 0;
    SessionList sessions;
  };

  SessionWindowAggregateOperator(SessionWindowAggregateSpec spec, KeyEncoder encoder,
                                 AggregateFunctions functions);
  // Slot of `key` among this round's slots, added (empty) when new.
  uint32_t SlotOf(const std::string& key, int key_group);
  // Reads every slot's sessions from the store (one ReadAll).
  absl::Status ReadSlots();
  // Writes every slot back (deleted when it has no session left) and commits.
  absl::Status WriteSlots();
  void FoldRow(Slot* slot, const ChangelogBatch& batch, size_t row, int64_t t);
  absl::Status FireUpTo(int64_t watermark);
  void AppendOutputRow(const std::string& key, const Session& session);
  void ReportMemory();

  SessionWindowAggregateSpec spec_;
  std::vector<DataType> output_types_;
  KeyEncoder encoder_;
  AggregateFunctions functions_;
  std::unique_ptr<KeyedStateTable> table_;
  int max_parallelism_ = kMaxParallelism;
  // RestoreState (every key group of the snapshots: they are this subtask's) and
  // RestoreRescaledState (those `owned` holds).
  absl::Status RestoreFrom(std::span<const OperatorSnapshot> snapshots,
                           const OwnedKeyGroups& owned);
  OwnedKeyGroups owned_;  // the key groups of this subtask
  int64_t watermark_ = kMinWatermark;
  std::set<Timer> timers_;  // in firing order
  size_t timer_key_bytes_ = 0;
  std::atomic<uint64_t> late_rows_dropped_{0};  // read by metrics from other threads
  std::atomic<uint64_t> reported_memory_bytes_{0};

  // Per-round scratch, reused.
  std::vector<std::unique_ptr<Slot>> slots_;
  size_t used_slots_ = 0;
  BatchKeyIndex slot_of_key_;
  std::vector<std::pair<uint32_t, uint32_t>> row_slots_;  // (row, slot) in input order
  std::vector<int64_t> retired_ends_;
  std::string key_buf_;
  std::string value_buf_;
  std::vector<AggValue> values_;
  ChangelogBatch out_;
};

}  // namespace eddy
