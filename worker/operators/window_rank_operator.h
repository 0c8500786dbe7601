// WindowRank: window Top-N (ROW_NUMBER() OVER (PARTITION BY window_start, window_end, keys ORDER BY
// ...) filtered to rank_start..rank_end over a window TVF or a window aggregate), and window
// deduplication as its rank-1 case, with the semantics of Flink's WindowRank and
// WindowDeduplicate: an append-only result emitted once per window when the watermark reaches the
// window's end - 1.
//
// Input: insert-only rows (anything else is an error) carrying their window in two TIMESTAMP
// columns, window_start_column and window_end_column (milliseconds; NULL is an error). A window is
// the pair (window_start, window_end); a partition is a window and the partition_keys values.
//
// Per partition, rows are ordered by order_by (SortKeyEncoder order: direction per field, NULLs
// first or last per nulls_first whatever the direction); among rows with equal sort keys the
// earlier arrival ranks first, or the later one with later_ties_first (a keep-last window
// deduplication is ORDER BY rowtime DESC, rank 1, later_ties_first). Rank r is the r-th row of that
// order (ROW_NUMBER: ties get distinct ranks).
//
// A row whose window_end - 1 <= the current watermark is late (its window has fired, or would
// have): it is dropped and counted (late_rows_dropped). Otherwise it joins its partition, which
// keeps only its top rank_end rows (the input is insert-only, so a row pushed below rank_end never
// comes back).
//
// ProcessWatermark(w), w above the current watermark: every window with window_end - 1 <= w fires,
// in window_end order; a firing window emits, per partition (in key group order, then window_start
// and partition key bytes), the rows ranked rank_start..min(rank_end, rows) in rank order as +I,
// with the row number appended (BIGINT NOT NULL) when output_rank_number. The window's state is
// then deleted. The watermark is forwarded after the rows it fired. Finish() fires every remaining
// window (as a final maximal watermark). An idle or non-advancing watermark fires nothing and is
// forwarded.
//
// State: one value per partition in the subtask's RocksDB store: state_key.h prefix (key group =
// KeyGroupOf of the partition key's KeyEncoder bytes, as the hash partitioner computes it; 0 for no
// partition keys) | window_end (8 bytes, order-preserving) | window_start (8 bytes) | partition
// key bytes -> RankRecordList encoding of the partition's kept rows. Per input batch each distinct
// partition is read once (one MultiGet) and written once (one write batch). A firing window's
// partitions are read and deleted by one prefix scan per key group that holds some. The operator
// keeps in memory only the index of pending windows (window_end -> which key groups hold state),
// which SnapshotState records with the watermark, so that a restored operator fires exactly the
// windows that had not fired.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
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
#include "worker/operators/owned_key_groups.h"
#include "worker/operators/rank_record_list.h"
#include "worker/operators/sort_key_encoder.h"
#include "worker/operators/watermark.h"
#include "worker/operators/window_clock.h"
#include "worker/state/keyed_state_table.h"

namespace eddy {

struct WindowRankSpec {
  std::vector<DataType> input_types;
  // Input columns besides the window; empty: one partition per window (key group 0).
  std::vector<int> partition_keys;
  // Empty: every row ties, ranked by arrival.
  std::vector<SortKeyField> order_by;
  int64_t rank_start = 1;  // 1-based, inclusive
  int64_t rank_end = 1;    // inclusive, >= rank_start
  // Appends the row number as a BIGINT NOT NULL column.
  bool output_rank_number = false;
  int window_start_column = -1;  // TIMESTAMP(p <= 3) input columns
  int window_end_column = -1;
  // Among equal sort keys the later arrival ranks first.
  bool later_ties_first = false;
  // What window_end counts in: a window fires when Progress(watermark) reaches window_end - 1.
  WindowClock clock;
};

// Output schema: the input columns, then the row number (BIGINT NOT NULL) with output_rank_number.
class WindowRankOperator final : public Operator {
 public:
  // Validates the spec (columns, window column types, rank range).
  static absl::StatusOr<std::unique_ptr<WindowRankOperator>> Create(WindowRankSpec spec);

  const WindowRankSpec& spec() const { return spec_; }
  const std::vector<DataType>& output_types() const { return output_types_; }

  // Requires ctx.state; uses ctx.state_id and ctx.max_parallelism for state keys.
  absl::Status Open(const OperatorContext& ctx) override;
  absl::Status Process(int input, const ChangelogBatch& batch) override;
  // Fires every window with window_end - 1 <= watermark, then passes the watermark on.
  absl::Status ProcessWatermark(const Watermark& watermark) override;
  // End of input: every remaining window fires.
  absl::Status Finish() override;
  // Records the watermark and the pending windows (every change is already in the store).
  absl::Status SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) override;
  // Takes back what SnapshotState recorded; the store must be the one snapshotted with it.
  absl::Status RestoreState(const OperatorSnapshot& snapshot) override;
  // The pending windows of the key groups this subtask owns, from every snapshot; the smallest
  // watermark.
  absl::Status RestoreRescaledState(std::span<const OperatorSnapshot> snapshots) override;
  absl::Status Close() override;

  uint64_t late_rows_dropped() const override {
    return late_rows_dropped_.load(std::memory_order_relaxed);
  }
  // The pending-window index (the rows themselves are in the store).
  uint64_t state_bytes_in_memory() const override {
    return memory_bytes_.load(std::memory_order_relaxed);
  }

  // Windows holding state that have not fired, for tests.
  size_t pending_windows() const { return pending_.size(); }
  // Reads/writes made so far, for tests and metrics; null before Open.
  const KeyedStateTable* state_table() const { return table_.get(); }

 private:
  // One distinct partition (window and partition key) of the current batch; reused across batches
  // so that the record lists keep their buffers.
  struct Slot {
    std::string_view key;  // window_end | window_start | partition key bytes, into encodings_
    int key_group = 0;
    int64_t window_end = 0;
    bool found = false;
    RankRecordList rows;
  };

  // Where the encodings of one accepted input row are in encodings_.
  struct RowEncoding {
    uint32_t slot;
    uint32_t key_begin, key_end;
    uint32_t sort_begin, sort_end;
    uint32_t row_begin, row_end;
  };

  WindowRankOperator(WindowRankSpec spec, KeyEncoder partition, SortKeyEncoder sort,
                     KeyEncoder row);

  // Checks the batch, encodes its on-time rows and reads their partitions from the store.
  absl::Status ReadSlots(const ChangelogBatch& batch);
  // Adds a row to a partition that keeps its top rank_end rows.
  void Accumulate(RankRecordList& rows, std::string_view sort_key, std::string_view row) const;
  void WriteSlots();
  // Fires every pending window with window_end - 1 <= watermark, in window_end order.
  absl::Status FireUpTo(int64_t watermark);
  absl::Status Fire(int64_t window_end, const std::vector<uint8_t>& key_groups);
  // Emits one partition's rows ranked rank_start..rank_end.
  absl::Status EmitPartition(const RankRecordList& rows);
  void UpdateMemoryBytes();

  WindowRankSpec spec_;
  KeyEncoder partition_;
  SortKeyEncoder sort_;
  KeyEncoder row_;
  std::vector<DataType> output_types_;
  KeyedStateBackend* backend_ = nullptr;
  std::unique_ptr<KeyedStateTable> table_;
  uint32_t state_id_ = 0;
  int max_parallelism_ = kMaxParallelism;
  // RestoreState (every key group of the snapshots: they are this subtask's) and
  // RestoreRescaledState (those `owned` holds).
  absl::Status RestoreFrom(std::span<const OperatorSnapshot> snapshots,
                           const OwnedKeyGroups& owned);
  OwnedKeyGroups owned_;
  int64_t watermark_ = kMinWatermark;
  // window_end -> one byte per key group (1: holds state of that window).
  std::map<int64_t, std::vector<uint8_t>> pending_;
  std::atomic<uint64_t> late_rows_dropped_{0};
  std::atomic<uint64_t> memory_bytes_{0};

  // Per-batch scratch, reused.
  std::string encodings_;
  std::vector<RowEncoding> row_encodings_;
  std::vector<std::unique_ptr<Slot>> slots_;
  size_t used_slots_ = 0;
  BatchKeyIndex slot_of_key_;
  std::string write_arena_;
  std::vector<size_t> write_ends_;
  RankRecordList fired_;
  ChangelogBatch out_;
};

}  // namespace eddy
