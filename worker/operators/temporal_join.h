// TemporalJoin: a join of an append-only (left) input against a versioned table, the changelog of
// its right input keyed by the join keys (Flink's TemporalRowTimeJoinOperator and
// TemporalProcessTimeJoinOperator): each left row joins the right row of its key valid at the left
// row's time. Output is append-only. Both sides' state lives in the subtask's RocksDB store; per
// input batch the (side, join key) values the batch needs are read once (state cache, then one
// MultiGet) and each changed value written once, as in StreamingJoinOperator.
#pragma once

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
#include "common/batch/column.h"
#include "common/expr/expr.h"
#include "worker/operators/batch_key_index.h"
#include "worker/operators/interval_join_records.h"
#include "worker/operators/join_common.h"
#include "worker/operators/key_encoder.h"
#include "worker/operators/operator.h"
#include "worker/operators/owned_key_groups.h"
#include "worker/operators/streaming_join.h"
#include "worker/operators/temporal_versions.h"
#include "worker/state/keyed_state_table.h"

namespace eddy {

struct TemporalJoinSpec {
  // INNER or LEFT OUTER (any other type is rejected).
  StreamingJoinType type = StreamingJoinType::kInner;
  std::vector<DataType> left_types;   // input 0: append-only
  std::vector<DataType> right_types;  // input 1: the versioned table's changelog
  // Equi-join key columns, pairwise, as StreamingJoinSpec; at least one pair. The right keys are
  // the versioned table's primary key. A NULL in a key column matches nothing.
  std::vector<int> left_keys;
  std::vector<int> right_keys;
  // The inputs' rowtime columns (TIMESTAMP(p), p <= 3, epoch millis; a NULL time is an error) for
  // an event-time join; both -1 for a processing-time join.
  int left_time = -1;
  int right_time = -1;
  // Residual condition (BOOLEAN) over the left columns followed by the right columns; a left row
  // joins its version only where it is TRUE. Null: none.
  ExprPtr condition;
};

// Output: the left columns followed by the right columns (nullable for LEFT OUTER); every row +I.
//
// Right input (input 1), per row in input order: +I and +U are a new version of their key, -D ends
// the key's row, -U is ignored (its +U follows); a row with a NULL key is ignored.
//   - Event time: the version (a row, or for -D a deletion) starts at the row's time; a version of
//     the same key and time is replaced.
//   - Processing time: +I/+U replace the key's row, -D removes it.
// Left input (input 0): +I rows only (anything else is an error). A row joins the version of its
// key valid at its time: when there is one, it is not a deletion and the condition is TRUE, +I[left
// ++ right]; otherwise INNER drops the row and LEFT OUTER emits +I[left ++ NULLs]. A row with a
// NULL key matches nothing and is dropped or padded at once.
//   - Event time: the version valid at time t is the one with the greatest time <= t. A row waits
//     in state until the combined watermark W (ProcessWatermark) reaches its time (t <= W); then
//     the waiting rows of each key with t <= W are joined in time order (equal times in arrival
//     order; Flink's operator keeps arrival order), keys in the order of their earliest such row
//     (then of their bytes). A row that arrives with t <= W (late) is joined at once against the
//     versions in state (Flink's operator holds it until the next watermark). Watermarks go on
//     unchanged, after the rows they release. Finish joins every waiting row (as a final watermark
//     would).
//   - Processing time: a row joins its key's current row at once.
// Rows a batch emits at once follow its input order.
//
// Versions no row can use any more leave the state: at a watermark W (and whenever a key's
// versions change) every version older than the newest one at or below W is dropped, and that one
// too when it is a deletion, so that a key whose only version left is a deletion at or below W is
// gone (TemporalVersions::Prune). A key's state is at most the versions later than W plus one.
// Late left rows see only what is left: one older than the newest version at or below W matches
// nothing (Flink's operator behaves alike once its cleanup ran).
//
// State: one value per (side, join key): key = state_key.h prefix (key group = KeyGroupOf of the
// join key's KeyEncoder bytes, as the hash partitioner computes it) + one side byte ('L' or 'R') +
// the join key's KeyEncoder bytes. Left value: IntervalJoinRecords encoding (no matched flags) of
// the waiting rows in time order (event time only). Right value: TemporalVersions encoding of the
// key's versions (event time), or the row's KeyEncoder bytes over all right columns (processing
// time). Timers (event time): an in-memory ordered set with one entry per left value, at its
// earliest waiting row's time, and one per right value that Prune will shrink, at its PruneTime; a
// watermark pops the due left entries in (time, key) order, reads their left and right values in
// one MultiGet per round, emits and prunes, then the due right entries. SnapshotState records the
// watermark, the number of waiting rows and the timers; RestoreState takes them back.
class TemporalJoinOperator : public Operator {
 public:
  // Validates the spec (type, columns, key and time types, condition).
  static absl::StatusOr<std::unique_ptr<TemporalJoinOperator>> Create(TemporalJoinSpec spec);

  const TemporalJoinSpec& spec() const { return spec_; }
  const std::vector<DataType>& output_types() const { return output_types_; }
  // Event time (rowtime columns given) rather than processing time.
  bool event_time() const { return event_time_; }

  // Requires ctx.state; uses ctx.state_id and ctx.max_parallelism for state keys.
  absl::Status Open(const OperatorContext& ctx) override;
  // `input` 0 is the left side, 1 the right (versioned) side.
  absl::Status Process(int input, const ChangelogBatch& batch) override;
  // Event time: joins the waiting rows the watermark reaches and prunes versions, then passes the
  // watermark on. Processing time: passes it on.
  absl::Status ProcessWatermark(const Watermark& watermark) override;
  // End of input: every waiting row is joined.
  absl::Status Finish() override;
  // Writes the state cache back to the store and records the watermark and the timers; emits
  // nothing.
  absl::Status SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) override;
  // Takes back what SnapshotState recorded; the store must be the one snapshotted with it.
  absl::Status RestoreState(const OperatorSnapshot& snapshot) override;
  // The timers of the key groups this subtask owns, from every snapshot, the smallest watermark,
  // and the waiting rows counted in the store when some state came from elsewhere.
  absl::Status RestoreRescaledState(std::span<const OperatorSnapshot> snapshots) override;
  // Frees the state cache and the timers held in memory; the state stays in the store.
  absl::Status Close() override;

  // Writes every change held in the state cache to RocksDB (for checkpoints and tests).
  absl::Status FlushState();

  // Reads/writes made so far, for tests and metrics; null before Open.
  const KeyedStateTable* state_table() const { return table_.get(); }
  // Timers held: one per left value with waiting rows, one per right value Prune will shrink.
  size_t pending_timers() const { return timers_.size(); }
  // Left rows waiting in state for the watermark.
  uint64_t waiting_rows() const { return waiting_rows_; }
  // The combined input watermark the operator has seen.
  int64_t current_watermark() const { return watermark_; }

 private:
  // What the operator knows of one input.
  struct Side {
    std::vector<DataType> types;
    KeyEncoder key;  // the join key columns
    KeyEncoder row;  // every column: the row codec of state values
    int time_column = -1;
    char tag = 'L';  // first byte of its state keys
  };

  // What happens to one left input row.
  enum class Action : uint8_t {
    kUnmatchable,  // a NULL key: padded (LEFT OUTER) or dropped, at once
    kJoin,         // joins the right side's state at once (late, or processing time)
    kWait,         // waits in state for the watermark
  };

  // Where the right row of a version was decoded into decoded_right_ (valid while `generation` is
  // the operator's decode_generation_).
  struct DecodedVersion {
    int64_t version = -1;
    uint32_t row = 0;
    uint64_t generation = 0;
  };

  // One distinct join key of the current batch with the state values it needs. Slots are reused
  // across batches so that their lists keep their buffers.
  struct Slot {
    std::string_view key;  // join key bytes, a view into encodings_
    int key_group = 0;
    bool need_left = false;   // rows wait under it
    bool need_right = false;  // rows join its versions (left batch), or versions change (right)
    size_t left_read = 0;
    size_t right_read = 0;
    bool left_found = false;
    bool right_found = false;
    std::optional<int64_t> old_left_timer;  // the timers of the values as read
    std::optional<int64_t> old_right_timer;
    IntervalJoinRecords left;
    TemporalVersions right;      // event time
    std::string_view right_row;  // processing time: the key's row (when right_found)
    // Processing time, right batch: the last change of the batch (a row, or a removal).
    bool remove = false;
    std::string_view new_row;
    DecodedVersion decoded;
  };

  // Per input row.
  struct RowInfo {
    Action action = Action::kJoin;
    bool skip = false;  // right input: -U or a NULL key
    int64_t time = 0;
    uint32_t slot = 0;
    uint32_t key_begin = 0, key_end = 0;  // join key bytes in encodings_
    uint32_t row_begin = 0, row_end = 0;  // row bytes, when stored
  };

  // A left row to join with its version (right >= 0: its row in decoded_right_) or with none.
  struct Probe {
    uint32_t left = 0;  // row of the left columns being joined
    int64_t right = -1;
  };

  // A timer: side 0 fires a left value's waiting rows, side 1 prunes a right value.
  // In firing order: the left side's first, each side by time, then key.
  struct Timer : JoinTimer {
    bool operator<(const Timer& o) const {
      if (side != o.side) return side < o.side;
      if (time != o.time) return time < o.time;
      return key < o.key;
    }
  };

  TemporalJoinOperator(TemporalJoinSpec spec, Side left, Side right);

  bool outer() const { return spec_.type == StreamingJoinType::kLeftOuter; }
  Slot* AcquireSlot();
  // The slot of join key `key` (a view into encodings_), added when new.
  uint32_t SlotFor(std::string_view key);
  absl::Status ProcessLeft(const ChangelogBatch& batch);
  absl::Status ProcessRight(const ChangelogBatch& batch);
  absl::Status ProcessRightProcessingTime(const ChangelogBatch& batch);
  // Reads the slots' values (left where need_left, right where need_right) and decodes them.
  absl::Status ReadSlots();
  // The row of version `version` of `versions` (event time) or of `row` (processing time, version
  // 0) in decoded_right_, decoded once per generation.
  absl::StatusOr<uint32_t> DecodeVersion(DecodedVersion* cache, int64_t version,
                                         std::string_view row);
  // Evaluates the condition over the probes' pairs and emits their output rows, in probe order;
  // `left` holds the probes' left rows. Clears the probes and decoded_right_.
  absl::Status JoinProbes(const std::vector<Column>& left);
  // Replaces the timer of (side, key) at `old_time` by one at `new_time` (either may be absent).
  void MoveTimer(uint8_t side, int key_group, std::string_view key, std::optional<int64_t> old_time,
                 std::optional<int64_t> new_time);
  // Joins every waiting row with time <= watermark; prunes right values when `prune`.
  absl::Status FireUpTo(int64_t watermark, bool prune);
  absl::Status PruneDueVersions(int64_t watermark);

  TemporalJoinSpec spec_;
  bool event_time_ = false;
  Side sides_[2];
  std::vector<DataType> output_types_;
  std::unique_ptr<KeyedStateTable> table_;
  int max_parallelism_ = kMaxParallelism;
  // RestoreState (every key group of the snapshots: they are this subtask's) and
  // RestoreRescaledState (those `owned` holds).
  absl::Status RestoreFrom(std::span<const OperatorSnapshot> snapshots,
                           const OwnedKeyGroups& owned);
  OwnedKeyGroups owned_;  // the key groups of this subtask
  KeyedStateBackend* store_ = nullptr;
  uint32_t state_id_ = 0;

  int64_t watermark_ = kMinWatermark;  // combined input watermark
  std::set<Timer> timers_;
  uint64_t waiting_rows_ = 0;

  // Per-batch scratch, reused.
  std::string encodings_;  // every row's join key and (when stored) row bytes
  std::vector<RowInfo> rows_;
  std::vector<std::unique_ptr<Slot>> slots_;
  size_t used_slots_ = 0;
  BatchKeyIndex slot_of_key_;
  std::string state_key_;
  std::vector<Probe> probes_;
  std::vector<Column> decoded_left_;   // left rows released from state
  std::vector<Column> decoded_right_;  // rows of the probes' versions
  uint64_t decode_generation_ = 1;
  ChangelogBatch pairs_;  // left ++ right rows of the probes with a version
  std::vector<uint8_t> match_;
  std::string write_arena_;
  std::vector<size_t> write_ends_;
  std::vector<Timer> due_;  // timers popped by one round
  ChangelogBatch out_;
};

}  // namespace eddy
