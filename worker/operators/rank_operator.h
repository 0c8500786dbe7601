// Rank: streaming Top-N (ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...) filtered to the ranks
// rank_start..rank_end), with Flink's AppendOnlyTopNFunction semantics for insert-only input and
// RetractableTopNFunction's for an updating input, and each partition's rows in the subtask's
// RocksDB store. Per input batch: each partition's state is read once (state cache, then one
// MultiGet), the rows are applied in input order in memory, each changed partition is written
// once, and the output goes out in one batch (a few for a very large output).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/base/hash.h"
#include "common/batch/changelog_batch.h"
#include "worker/operators/batch_key_index.h"
#include "worker/operators/key_encoder.h"
#include "worker/operators/operator.h"
#include "worker/operators/rank_record_list.h"
#include "worker/operators/sort_key_encoder.h"
#include "worker/state/keyed_state_table.h"

namespace eddy {

enum class RankStrategy {
  kAppendFast,  // insert-only input: a partition keeps its top rank_end rows only
  kRetract,     // updating input (+I/-U/+U/-D): a partition keeps all its rows
};

// How rows are numbered: ROW_NUMBER() (each row its own number), RANK() (ties share the number of
// the first of them, the next rank skips) or DENSE_RANK() (ties share a number, no gaps).
enum class RankFunction { kRowNumber, kRank, kDenseRank };

struct RankSpec {
  std::vector<DataType> input_types;
  // With APPEND_FAST, RANK and DENSE_RANK keep the rows ranked up to rank_end (with their ties,
  // possibly more than rank_end rows).
  RankFunction function = RankFunction::kRowNumber;
  // Input columns; empty: one partition (key group 0; the planner runs it at parallelism 1).
  std::vector<int> partition_keys;
  // Empty: every row ties, ranked by arrival.
  std::vector<SortKeyField> order_by;
  int64_t rank_start = 1;  // 1-based, inclusive
  int64_t rank_end = 1;    // inclusive, >= rank_start
  // Appends the row number as a BIGINT NOT NULL column.
  bool output_rank_number = false;
  RankStrategy strategy = RankStrategy::kAppendFast;
  // Emit -U before each +U (with a row number, or with rank_start > 1).
  bool generate_update_before = true;
  // State TTL (table.exec.state.ttl): a partition whose state was not written for this long is
  // gone, and its next row starts an empty Top-N; a retraction for it is ignored. Nothing is
  // emitted when state expires. 0: forever. Time comes from the state backend's clock.
  int64_t state_ttl_ms = 0;
};

// Output schema: the input columns, then the row number (BIGINT NOT NULL) with output_rank_number.
//
// A partition's rows are ordered by order_by (SortKeyEncoder order), ties by arrival (a row goes
// after the rows with an equal sort key); rank r is the r-th row of that order. Per input row, in
// input order, as Flink ("in range": rank_start <= r <= rank_end; S is the partition before the
// row, n its row count, S[r] its row of rank r; rows are emitted with their own columns):
//
// With the row number, or with rank_start > 1 (the row number then decides what is emitted, but
// the output has no row number column), where "X at r" is X followed by r when numbered:
//   accumulate, the new row taking rank p <= rank_end: for r = p .. min(n, rank_end), each in
//     range: -U S[r] at r (only with generate_update_before), then +U at r of the row now at r
//     (the new row for r = p, else S[r - 1]); then, if n + 1 <= rank_end and in range, +I at n + 1
//     of the row now last. A row taking a rank above rank_end emits nothing.
//   retract of the row at rank q <= rank_end (the first copy of an equal row among its ties): for
//     r = q .. min(n - 1, rank_end), each in range: -U S[r] at r (with generate_update_before),
//     +U S[r + 1] at r; then, if n <= rank_end and in range, -D S[n] at n.
// Without the row number and with rank_start = 1:
//   accumulate, the new row taking rank p <= rank_end: -D S[rank_end] if n >= rank_end (the row
//     pushed out), then +I of the new row.
//   retract of the row at rank q <= rank_end: -D of it, then +I S[rank_end + 1] if n > rank_end
//     (the row pulled in).
// A retraction at a rank above rank_end emits nothing. A retraction of a row the partition does not
// hold (never seen, or expired) is ignored.
//
// APPEND_FAST accepts only +I rows (anything else is an error) and keeps the top rank_end rows of
// a partition: a row enters when the partition has fewer than rank_end rows or when its sort key
// comes strictly before the last kept row's; a row that does not enter changes nothing. (Flink's
// buffer may also keep rows past rank_end, those with the sort key of rank rank_end + 1; in an
// insert-only input a row never moves up, so they could never be emitted.) RETRACT keeps every row
// (+I/+U accumulate, -U/-D retract), equal consecutive rows as one record with a count.
//
// State: one value per partition: key = state_key.h prefix (key group = KeyGroupOf of the
// partition key's KeyEncoder bytes, as the hash partitioner computes it, or 0 for the empty key) +
// those bytes; value = RankRecordList encoding of the partition's rows.
class RankOperator : public Operator {
 public:
  // Validates the spec (columns, rank range).
  static absl::StatusOr<std::unique_ptr<RankOperator>> Create(RankSpec spec);

  const RankSpec& spec() const { return spec_; }
  const std::vector<DataType>& output_types() const { return output_types_; }

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
  // One distinct partition of the current batch. Slots are reused across batches so that their
  // record lists keep their buffers.
  struct Slot {
    std::string_view key;  // partition key bytes, a view into encodings_
    int key_group = 0;
    size_t read = 0;
    bool found = false;
    RankRecordList rows;
  };

  // Where the encodings of one input row are in encodings_.
  struct RowEncoding {
    uint32_t key_begin, key_end;
    uint32_t sort_begin, sort_end;
    uint32_t row_begin, row_end;
  };

  RankOperator(RankSpec spec, KeyEncoder partition, SortKeyEncoder sort, KeyEncoder row);

  // The numbered algorithm (with a row number, or rank_start > 1), or the plain one.
  bool numbered() const { return spec_.output_rank_number || spec_.rank_start > 1; }
  bool in_range(int64_t rank) const { return rank >= spec_.rank_start && rank <= spec_.rank_end; }

  // RANK()/DENSE_RANK(): the partition's rows in range with their ranks before and after the
  // change, and the difference emitted as -D of the rows (with their ranks when numbered) that
  // left and +I of those that entered.
  absl::Status ApplyRanked(RankRecordList& rows, std::string_view sort_key, std::string_view row,
                           bool accumulate);
  // Returns how many rows rank at or below rank_end.
  int64_t InRange(const RankRecordList& rows,
                  std::vector<std::pair<std::string_view, int64_t>>* out);

  Slot* AcquireSlot();
  // Encodes every row and reads the batch's partitions from the store.
  absl::Status ReadSlots(const ChangelogBatch& batch);
  absl::Status Accumulate(RankRecordList& rows, std::string_view sort_key, std::string_view row);
  absl::Status Retract(RankRecordList& rows, std::string_view sort_key, std::string_view row);
  void WriteSlots();
  // Appends `row` (KeyEncoder bytes) with `kind`, and `rank` when numbered output is on; emits the
  // output batch once full.
  absl::Status EmitRow(RowKind kind, std::string_view row, int64_t rank);

  RankSpec spec_;
  KeyEncoder partition_;
  SortKeyEncoder sort_;
  KeyEncoder row_;
  std::vector<DataType> output_types_;
  std::unique_ptr<KeyedStateTable> table_;
  std::atomic<uint64_t> memory_bytes_{0};  // the state cache's, after each batch
  int max_parallelism_ = kMaxParallelism;

  // Per-batch scratch, reused.
  std::string encodings_;
  std::vector<RowEncoding> row_encodings_;
  std::vector<std::unique_ptr<Slot>> slots_;
  size_t used_slots_ = 0;
  BatchKeyIndex slot_of_key_;
  std::vector<uint32_t> row_slot_;
  std::string write_arena_;
  std::vector<size_t> write_ends_;
  ChangelogBatch out_;
  std::vector<std::pair<std::string_view, int64_t>> before_, after_;  // ApplyRanked's lists
};

}  // namespace eddy
