// IntervalJoin: the event-time interval join of two append-only inputs (Flink's RowTimeIntervalJoin
// with an allowed lateness of 0): a left row at time l and a right row at time r with equal join
// keys join when lower_bound_ms <= l - r <= upper_bound_ms and the residual condition is TRUE. The
// output is append-only; rows are kept in the subtask's RocksDB store until the watermark shows no
// row of the other side can still match them, then dropped (an outer side's unmatched rows are
// emitted padded with NULLs at that moment). Per input batch the (side, join key) values the batch
// needs are read once (state cache, then one MultiGet) and each changed value written once, as in
// StreamingJoinOperator.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/base/hash.h"
#include "common/batch/changelog_batch.h"
#include "common/batch/column.h"
#include "common/expr/expr.h"
#include "worker/operators/batch_key_index.h"
#include "worker/operators/interval_join_records.h"
#include "worker/operators/join_common.h"
#include "worker/operators/key_encoder.h"
#include "worker/operators/operator.h"
#include "worker/operators/owned_key_groups.h"
#include "worker/operators/streaming_join.h"
#include "worker/state/keyed_state_table.h"

namespace eddy {

struct IntervalJoinSpec {
  // INNER, LEFT OUTER, RIGHT OUTER or FULL OUTER (SEMI and ANTI are rejected).
  StreamingJoinType type = StreamingJoinType::kInner;
  std::vector<DataType> left_types;   // input 0
  std::vector<DataType> right_types;  // input 1
  // Equi-join key columns, pairwise, as StreamingJoinSpec (a NULL in a key column matches nothing;
  // empty: every row has the empty key, key group 0).
  std::vector<int> left_keys;
  std::vector<int> right_keys;
  // The inputs' rowtime columns: TIMESTAMP(p), p <= 3, epoch millis; a NULL time is an error.
  int left_time = -1;
  int right_time = -1;
  // lower_bound_ms <= left time - right time <= upper_bound_ms; lower <= upper.
  int64_t lower_bound_ms = 0;
  int64_t upper_bound_ms = 0;
  // Residual condition (BOOLEAN) over the left columns followed by the right columns; a pair
  // matches only where it is TRUE. Null: none.
  ExprPtr condition;
};

// Output: the left columns followed by the right columns (an outer join makes the padded side's
// columns nullable); every row +I.
//
// Time is the combined watermark W of both inputs (ProcessWatermark). A left row at l can be
// matched by future right rows (r > W) while W < l - lower: it expires once W >= l - lower; a right
// row at r expires once W >= r + upper. Per input row (+I only; any other kind is an error):
//   - it joins the other side's rows in state with the same key, a time in its bounds and the
//     condition TRUE: +I[left ++ right] per match, at once; on an outer side a matched stored row
//     is marked as such;
//   - not yet expired, it is stored (with whether it matched); already expired, it is not, and on
//     an outer side it is emitted padded at once when it matched nothing;
//   - late: expired and too old for any row of the other side still in state (l - lower <=
//     W - max(upper, 0), resp. r + upper <= W - max(-lower, 0)): nothing is read; on an outer side
//     it is emitted padded, otherwise dropped and counted (late_rows_dropped), whatever its key;
//   - a NULL in a key column matches nothing: on an outer side the row is emitted padded at once
//     (it can never match, so it need not wait for the watermark), otherwise dropped (not counted);
//     it is never stored.
// Rows of one batch are applied in input order, and their output follows that order.
// When W advances, every stored row that expires leaves the state, emitted padded first when it is
// on an outer side and never matched. Then the watermark goes on held back by
// max(-lower, upper, 0), so that no output row is late; it never goes back. Finish expires every
// stored row (as a final watermark would).
//
// State: one value per (side, join key): key = state_key.h prefix (key group = KeyGroupOf of the
// join key's KeyEncoder bytes, as the hash partitioner computes it, or 0 for the empty key) + one
// side byte ('L' or 'R') + the join key's KeyEncoder bytes; value = IntervalJoinRecords encoding of
// the side's rows under that key (matched flags on an outer side). Timers: an in-memory ordered
// set with one entry per such value, (its earliest expiry, side, key group, join key); a watermark
// pops the due entries in order, reads their values in one MultiGet, drops the expired records and
// sets the entry again at the value's next expiry. SnapshotState records the watermarks, the
// number of stored rows and the timers; RestoreState takes them back. The late-row count is a
// metric and starts from 0 in a restored instance.
class IntervalJoinOperator : public Operator {
 public:
  // Validates the spec (type, columns, key and time types, bounds, condition).
  static absl::StatusOr<std::unique_ptr<IntervalJoinOperator>> Create(IntervalJoinSpec spec);

  const IntervalJoinSpec& spec() const { return spec_; }
  const std::vector<DataType>& output_types() const { return output_types_; }
  // How far the output watermark trails the input watermark: max(-lower, upper, 0).
  int64_t output_delay_ms() const { return output_delay_ms_; }

  // Requires ctx.state; uses ctx.state_id and ctx.max_parallelism for state keys.
  absl::Status Open(const OperatorContext& ctx) override;
  // `input` 0 is the left side, 1 the right.
  absl::Status Process(int input, const ChangelogBatch& batch) override;
  // Expires the rows the watermark passed, then emits the held-back watermark.
  absl::Status ProcessWatermark(const Watermark& watermark) override;
  // End of input: every stored row expires (outer rows that never matched are emitted padded).
  absl::Status Finish() override;
  // Writes the state cache back to the store and records the watermark and the timers; emits
  // nothing.
  absl::Status SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) override;
  // Takes back what SnapshotState recorded; the store must be the one snapshotted with it.
  absl::Status RestoreState(const OperatorSnapshot& snapshot) override;
  // The timers of the key groups this subtask owns, from every snapshot, the smallest watermarks,
  // and the stored rows counted in the store when some state came from elsewhere.
  absl::Status RestoreRescaledState(std::span<const OperatorSnapshot> snapshots) override;
  // Frees the state cache and the timers held in memory; the state stays in the store.
  absl::Status Close() override;

  uint64_t late_rows_dropped() const override {
    return late_rows_dropped_.load(std::memory_order_relaxed);
  }

  // Writes every change held in the state cache to RocksDB (for checkpoints and tests).
  absl::Status FlushState();

  // Reads/writes made so far, for tests and metrics; null before Open.
  const KeyedStateTable* state_table() const { return table_.get(); }
  // (side, join key) values in state, each with one timer.
  size_t pending_timers() const { return timers_.size(); }
  // Rows held in state (both sides).
  uint64_t stored_rows() const { return stored_rows_; }
  // The combined input watermark the operator has seen.
  int64_t current_watermark() const { return watermark_; }

 private:
  // What the operator knows of one input.
  struct Side {
    std::vector<DataType> types;
    KeyEncoder key;  // the join key columns
    KeyEncoder row;  // every column: the row codec of state records
    int time_column = -1;
    bool outer = false;        // its unmatched rows are emitted null-padded
    char tag = 'L';            // first byte of its state keys
    size_t column_offset = 0;  // of its columns in left ++ right
  };

  // What happens to one input row.
  enum class Action : uint8_t {
    kLate,          // too old to match anything: padded (outer side) or dropped and counted
    kUnmatchable,   // a NULL key: padded (outer side) or dropped
    kJoin,          // expired: joins what is in state, is not stored
    kJoinAndStore,  // joins what is in state, then is stored
  };

  // One distinct join key of the current batch with both sides' records under it. Slots are
  // reused across batches so that their record lists keep their buffers.
  struct Slot {
    std::string_view key;  // join key bytes, a view into encodings_
    int key_group = 0;
    bool store = false;  // some row of the batch is stored under it
    size_t own_read = 0;
    size_t other_read = 0;
    bool own_found = false;
    bool other_found = false;
    // The own value held rows before the batch: its timer is at the expiry of this time.
    bool own_timer = false;
    int64_t own_old_first_time = 0;
    size_t decode_begin = 0;  // the other side's records decoded into decoded_
    size_t decode_end = 0;
    IntervalJoinRecords own;
    IntervalJoinRecords other;
  };

  // Per input row.
  struct RowInfo {
    Action action = Action::kJoin;
    int64_t time = 0;
    uint32_t slot = 0;
    uint32_t key_begin = 0, key_end = 0;
    uint32_t row_begin = 0, row_end = 0;  // row bytes, when stored
    size_t candidates_begin = 0;          // the other side's records in its bounds
    size_t candidates_end = 0;
  };

  // A pending expiry: the earliest expiry time of the rows of one (side, join key) value.
  // In firing order: by time, then side and key.
  struct Timer : JoinTimer {
    bool operator<(const Timer& o) const {
      if (time != o.time) return time < o.time;
      if (side != o.side) return side < o.side;
      return key < o.key;
    }
  };

  IntervalJoinOperator(IntervalJoinSpec spec, Side left, Side right);

  // When a row of `side` at `time` expires (the watermark at which no future row can match it).
  int64_t ExpiryOf(int side, int64_t time) const;
  Slot* AcquireSlot();
  // Classifies the rows, finds the batch's slots, reads them and decodes the candidates.
  absl::Status PrepareRows(int input, const ChangelogBatch& batch);
  // Builds the (row, candidate) pairs of rows [begin, end) and evaluates the condition over them
  // into match_; pair_begin_ gets each row's first pair. Returns the end actually taken.
  absl::StatusOr<size_t> EvaluateChunk(int input, const ChangelogBatch& batch, size_t begin);
  void ProcessRow(int input, const ChangelogBatch& batch, size_t row, const uint8_t* matches);
  absl::Status WriteSlots(int input);
  // Expires every stored row whose expiry is <= watermark.
  absl::Status ExpireUpTo(int64_t watermark);

  // Output rows. `rec` is a record of the other side (its row in decoded_[other]).
  void EmitJoined(int input, const ChangelogBatch& batch, size_t row,
                  const IntervalJoinRecord& rec);
  void EmitInputPadded(int input, const ChangelogBatch& batch, size_t row);
  absl::Status EmitRecordPadded(int side, std::string_view row);

  IntervalJoinSpec spec_;
  Side sides_[2];
  std::vector<DataType> output_types_;
  int64_t output_delay_ms_ = 0;
  std::unique_ptr<KeyedStateTable> table_;
  int max_parallelism_ = kMaxParallelism;
  // RestoreState (every key group of the snapshots: they are this subtask's) and
  // RestoreRescaledState (those `owned` holds).
  absl::Status RestoreFrom(std::span<const OperatorSnapshot> snapshots,
                           const OwnedKeyGroups& owned);
  OwnedKeyGroups owned_;  // the key groups of this subtask
  KeyedStateBackend* store_ = nullptr;
  uint32_t state_id_ = 0;

  int64_t watermark_ = kMinWatermark;      // combined input watermark
  int64_t out_watermark_ = kMinWatermark;  // last output watermark
  std::set<Timer> timers_;
  uint64_t stored_rows_ = 0;
  std::atomic<uint64_t> late_rows_dropped_{0};  // read by metrics from other threads

  // Per-batch scratch, reused.
  std::string encodings_;  // every row's join key and row bytes
  std::vector<RowInfo> rows_;
  std::vector<std::unique_ptr<Slot>> slots_;
  size_t used_slots_ = 0;
  BatchKeyIndex slot_of_key_;
  std::string state_key_;
  std::vector<Column> decoded_[2];  // rows of other-side records, per side
  ChangelogBatch pairs_;            // left ++ right rows of candidate pairs
  std::vector<size_t> pair_begin_;
  std::vector<uint8_t> match_;
  std::string write_arena_;
  std::vector<size_t> write_ends_;
  std::vector<Timer> due_;  // timers popped by one expiry round
  std::vector<IntervalJoinRecords> expiring_;
  ChangelogBatch out_;
};

}  // namespace eddy
