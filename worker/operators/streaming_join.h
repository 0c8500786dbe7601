// StreamingJoin: the regular (non-windowed) streaming join of two changelogs, with Flink's
// StreamingJoinOperator semantics for INNER / LEFT / RIGHT / FULL OUTER joins and
// StreamingSemiAntiJoinOperator's for SEMI / ANTI joins, and both sides' rows in the subtask's
// RocksDB store. Per input batch: the (side, join key) values the batch needs are read once (state
// cache, then one MultiGet), the rows are applied in input order in memory, each changed value is
// written once, and the output goes out in one batch (a few for a very large output).
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
#include "common/batch/column.h"
#include "common/expr/expr.h"
#include "worker/operators/batch_key_index.h"
#include "worker/operators/join_record_list.h"
#include "worker/operators/key_encoder.h"
#include "worker/operators/operator.h"
#include "worker/state/keyed_state_table.h"

namespace eddy {

// The join types of v1::Join (the planner's logical JoinType is another, coordinator-side enum).
enum class StreamingJoinType { kInner, kLeftOuter, kRightOuter, kFullOuter, kSemi, kAnti };

// "INNER", "LEFT OUTER", ..., for messages.
const char* StreamingJoinTypeName(StreamingJoinType type);

struct StreamingJoinSpec {
  StreamingJoinType type = StreamingJoinType::kInner;
  std::vector<DataType> left_types;   // input 0
  std::vector<DataType> right_types;  // input 1
  // Equi-join key columns, pairwise: left_keys[i] = right_keys[i]. The pairs' types must encode
  // equal values to equal bytes (the same type up to nullability, VARCHAR length and DECIMAL or
  // TIMESTAMP precision), as both inputs are hash-partitioned on those bytes. Empty: no equi key,
  // every row has the empty key (key group 0; the planner runs such a join at parallelism 1).
  std::vector<int> left_keys;
  std::vector<int> right_keys;
  // Per key pair: true for IS NOT DISTINCT FROM (NULL matches NULL). Otherwise a NULL in that key
  // column matches nothing (the row is still kept, and an outer side's row emitted padded). Empty:
  // all false.
  std::vector<bool> null_safe;
  // Residual condition (BOOLEAN) over the left columns followed by the right columns; a pair
  // matches only where it is TRUE. Null: none.
  ExprPtr condition;
  // A unique key of each input (its columns; empty: none). With one, the side keeps one row per
  // unique key under a join key (a new row replaces, a retraction removes) instead of a multiset.
  std::vector<int> left_unique_key;
  std::vector<int> right_unique_key;
  // State TTL (table.exec.state.ttl), as Flink's join state TTL: a side's rows for a join key not
  // written for this long are gone (a retraction of one of them is then ignored). Nothing is
  // emitted when state expires. 0: forever. Time comes from the state backend's clock.
  int64_t state_ttl_ms = 0;
  // The consumer takes upserts: -U rows are not emitted (the planner allows it only when an update
  // on either input keeps its join key, so that the +U that follows replaces the row).
  bool omit_update_before = false;
};

// Output schema: INNER and OUTER joins emit the left columns followed by the right columns (an
// outer join makes the padded side's columns nullable); SEMI and ANTI emit the left columns only.
//
// Per row, in input order (+I/+U accumulate, -U/-D retract), as Flink. "Associated records" of a
// row are the other side's records with the same join key (no NULL in a non-null-safe key column)
// for which the condition holds, each counted with its multiplicity.
//   INNER/OUTER, accumulate: an outer input row without associated records emits +I[row + nulls];
//     otherwise, when the other side is outer, each associated record that had no association
//     retracts its padded row (-D[nulls + other]), then [row + other] is emitted for each: +I, or
//     the input's own kind (+I or +U) when neither the input nor the other side is outer. The row
//     is stored with its number of associations.
//   INNER/OUTER, retract: the row leaves its side's state; an outer input row without associated
//     records emits -D[row + nulls]; otherwise [row + other] is retracted for each (-D for an outer
//     input, else the input's kind), and when the other side is outer each associated record left
//     without an association emits its padded row again (+I[nulls + other]).
//   SEMI/ANTI, left row: emitted with its own kind when it has associated records (SEMI) or none
//     (ANTI), and stored (accumulate) or removed (retract).
//   SEMI/ANTI, right row: stored or removed; each left record whose associations go from 0 to 1
//     emits +I (SEMI) or -D (ANTI), from 1 to 0 -D (SEMI) or +I (ANTI).
// A retraction of a row its side does not hold (never seen, or expired) is ignored.
//
// State: one value per (side, join key): key = state_key.h prefix (key group = KeyGroupOf of the
// join key's KeyEncoder bytes, as the hash partitioner computes it, or 0 for the empty key) + one
// side byte ('L' or 'R') + the join key's KeyEncoder bytes; value = JoinRecordList encoding of the
// side's records under that key (associations kept for an outer side and SEMI/ANTI's left side).
class StreamingJoinOperator : public Operator {
 public:
  // Validates the spec (columns, key types, condition).
  static absl::StatusOr<std::unique_ptr<StreamingJoinOperator>> Create(StreamingJoinSpec spec);

  const StreamingJoinSpec& spec() const { return spec_; }
  const std::vector<DataType>& output_types() const { return output_types_; }

  // Requires ctx.state; uses ctx.state_id and ctx.max_parallelism for state keys.
  absl::Status Open(const OperatorContext& ctx) override;
  // `input` 0 is the left side, 1 the right.
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
  // What the operator knows of one input.
  struct Side {
    std::vector<DataType> types;
    KeyEncoder key;     // the join key columns
    KeyEncoder row;     // every column: the row codec of state records
    KeyEncoder unique;  // the unique key columns, when has_unique
    bool has_unique = false;
    bool outer = false;         // its rows are emitted null-padded when they have no match
    bool associations = false;  // its records count their associations
    char tag = 'L';             // first byte of its state keys
    size_t column_offset = 0;   // of its columns in left ++ right
  };

  // One distinct join key of the current batch with both sides' records under it. Slots are
  // reused across batches so that their record lists keep their buffers.
  struct Slot {
    std::string_view key;  // join key bytes, a view into encodings_
    int key_group = 0;
    bool matchable = true;  // no NULL in a non-null-safe key column
    size_t own_read = 0;
    size_t other_read = 0;  // when matchable
    bool own_found = false;
    bool other_found = false;
    size_t other_live = 0;  // live records of `other` at the start of the batch
    JoinRecordList own;     // the input side's records
    JoinRecordList other;   // the other side's records (read only when matchable)
  };

  // Where the encodings of one input row are in encodings_.
  struct RowEncoding {
    uint32_t key_begin, key_end;
    uint32_t row_begin, row_end;
    uint32_t id_begin, id_end;  // the unique key, or the row again
  };

  StreamingJoinOperator(StreamingJoinSpec spec, Side left, Side right);

  bool semi_or_anti() const {
    return spec_.type == StreamingJoinType::kSemi || spec_.type == StreamingJoinType::kAnti;
  }
  Slot* AcquireSlot();
  // Reads the batch's slots from the store and decodes them.
  absl::Status ReadSlots(int input, const ChangelogBatch& batch);
  // Decodes the rows of the other side's live records of every matchable slot into decoded_.
  absl::Status DecodeOtherRows(int other);
  // Builds the (row, candidate) pairs of rows [begin, end) and evaluates the condition over them
  // into match_; pair_begin_ gets each row's first pair. Returns the end actually taken (at least
  // begin + 1): a chunk holds a bounded number of pairs.
  absl::StatusOr<size_t> EvaluateChunk(int input, const ChangelogBatch& batch, size_t begin);
  // Collects into associated_ the other side's records associated with a row of slot `s`
  // (`matches`: the condition's results for the row's candidates, null without a condition);
  // returns their total count.
  int64_t CollectAssociated(const Slot& s, const uint8_t* matches);
  absl::Status ProcessJoinRow(int input, const ChangelogBatch& batch, size_t row, Slot& s,
                              const uint8_t* matches);
  absl::Status ProcessSemiAntiRow(int input, const ChangelogBatch& batch, size_t row, Slot& s,
                                  const uint8_t* matches);
  absl::Status WriteSlots();

  // Output rows. `rec` is a record of the other side (its row in decoded_[other]).
  void EmitJoined(RowKind kind, int input, const ChangelogBatch& batch, size_t row,
                  const JoinRecord& rec, int64_t times);
  void EmitInputPadded(RowKind kind, int input, const ChangelogBatch& batch, size_t row);
  void EmitOtherPadded(RowKind kind, int other, const JoinRecord& rec, int64_t times);
  void EmitLeftInput(RowKind kind, const ChangelogBatch& batch, size_t row);
  void EmitLeftRecord(RowKind kind, const JoinRecord& rec, int64_t times);

  StreamingJoinSpec spec_;
  Side sides_[2];
  std::vector<DataType> output_types_;
  std::unique_ptr<KeyedStateTable> table_;
  std::atomic<uint64_t> memory_bytes_{0};  // the state cache's, after each batch
  int max_parallelism_ = kMaxParallelism;

  // Per-batch scratch, reused.
  std::string encodings_;  // every row's join key, row and unique key bytes
  std::vector<RowEncoding> row_encodings_;
  std::vector<std::unique_ptr<Slot>> slots_;
  size_t used_slots_ = 0;
  BatchKeyIndex slot_of_key_;
  std::vector<uint32_t> row_slot_;
  std::string state_key_;
  std::vector<Column> decoded_[2];  // rows of other-side records, per side
  ChangelogBatch pairs_;            // left ++ right rows of candidate pairs
  std::vector<size_t> pair_begin_;
  std::vector<uint8_t> match_;
  std::vector<uint32_t> associated_;  // indices into Slot::other
  std::string write_arena_;
  std::vector<size_t> write_ends_;
  ChangelogBatch out_;
};

}  // namespace eddy
