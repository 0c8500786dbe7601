// The source contract of the worker runtime: the task driver polls Next() for batches. A source
// never sleeps: when it has nothing now (rate limit, no input yet) it says kIdle and the driver
// waits.
#pragma once

#include <chrono>
#include <optional>

#include "absl/status/statusor.h"
#include "common/batch/changelog_batch.h"
#include "worker/operators/barrier_signal.h"
#include "worker/operators/operator.h"

namespace eddy {

enum class SourceState {
  kData,  // *out holds a batch (possibly empty)
  kIdle,  // nothing now; ask again after idle_wait()
  kEnd,   // no more data, ever
};

class Source {
 public:
  virtual ~Source() = default;
  virtual absl::Status Open(const OperatorContext& ctx) { return absl::OkStatus(); }
  virtual absl::StatusOr<SourceState> Next(ChangelogBatch* out) = 0;
  virtual absl::Status Close() { return absl::OkStatus(); }
  // A watermark to emit after the batch Next() returned, if event time advanced (exchange gates
  // forward their producers' watermarks; connectors leave it to a WatermarkAssigner operator).
  virtual std::optional<Watermark> TakeWatermark() { return std::nullopt; }
  // Checkpoint hooks, as Operator's (operator.h gives the call order): a source records its
  // position so that a restore replays exactly what followed it.
  virtual absl::Status SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) {
    return absl::OkStatus();
  }
  virtual absl::Status RestoreState(const OperatorSnapshot& snapshot) { return absl::OkStatus(); }
  virtual absl::Status NotifyCheckpointComplete(int64_t checkpoint_id) { return absl::OkStatus(); }
  // After Next() returned kData (and the watermark was taken): a checkpoint barrier the source's
  // inputs completed (an exchange gate aligned barrier n: the driver snapshots the task now) or
  // aborted. Sources that the coordinator triggers directly have none.
  virtual std::optional<BarrierSignal> TakeBarrier() { return std::nullopt; }
  // Checkpoint `checkpoint_id` was aborted: stop aligning barriers for it.
  virtual void AbortCheckpoint(int64_t checkpoint_id) {}
  // Per-split event time (Flink's per-split watermarks): a source that reads several splits (the
  // partitions of a Kafka topic) puts the rows of one split in each batch and says which, so that a
  // WatermarkAssigner chained after it keeps one watermark per split, each going idle on its own.
  // num_splits() -1: the source has no splits (the default); 0: none assigned to this subtask.
  virtual int num_splits() const { return -1; }
  // The split of the batch Next() returned last, in [0, num_splits()).
  virtual int batch_split() const { return 0; }
  // A split read to its end (a bounded scan) no longer holds event time back.
  virtual bool split_finished(int split) const { return false; }
  // The idle timeout of a split that the table sets (scan.watermark.idle-timeout); -1: the job's
  // (table.exec.source.idle-timeout).
  virtual int64_t split_idle_timeout_ms() const { return -1; }
  // After Next() returned kEnd: whether the input ended because the job stops after a savepoint
  // (an exchange whose producers ended so), not because it is exhausted.
  virtual bool ended_at_stop() const { return false; }
  // How long the driver may wait after kIdle before asking again.
  virtual std::chrono::microseconds idle_wait() const { return std::chrono::microseconds(1000); }

  uint64_t rows_out() const { return rows_out_; }

 protected:
  uint64_t rows_out_ = 0;
};

// Default number of rows a source puts in one batch.
inline constexpr size_t kDefaultBatchRows = 1024;

}  // namespace eddy
