// The operator contract of the worker runtime (push model, like Flink's chained operators): the
// task driver hands each input batch to Process(); an operator emits zero or more batches to its
// Output, synchronously. Backpressure belongs to the driver: an operator never blocks or sleeps,
// except an exchange sink waiting for credit, which is how a slow consumer stops the driver (it
// honours ctx.cancelled).
//
// Call order, all on the task's thread:
//   Open(ctx)
//   RestoreState(snapshot)                       only when the task starts from a checkpoint
//     or RestoreRescaledState(snapshots)         ... taken at another parallelism
//   { Process(input, batch) | ProcessWatermark(w) | OnTick(now)
//     | PrepareSnapshotPreBarrier(n), SnapshotState(n, out)   at checkpoint barrier n
//     | NotifyCheckpointComplete(n) }*            in any interleaving
//   Finish()                                     once, after every input ended (not on failure)
//     or EndAtStop()                             ... ended because the job stops (see below)
//   { SnapshotState(n, out) | NotifyCheckpointComplete(n) }*
//                                                only while HasUncommittedOutput() (a sink waiting
//                                                for its final checkpoint, see below)
//   Close()                                      once, always, also after failures
// A keyed operator's state lives in its subtask's state store (ctx.state), which the worker keeps
// until the job ends on that worker: Close() releases memory, never state. Checkpoint hooks default
// to doing nothing, which is right for operators whose state is all in the store (the runtime
// snapshots the store itself) or that keep no state.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "absl/status/status.h"
#include "common/base/hash.h"
#include "common/batch/changelog_batch.h"
#include "worker/operators/operator_snapshot.h"
#include "worker/operators/watermark.h"

namespace eddy {

class KeyedStateBackend;
class Source;

// Receives an operator's output; implemented by the runtime (fan-out to downstream operators, an
// exchange sender, or a test collector).
class Output {
 public:
  virtual ~Output() = default;
  virtual absl::Status Emit(const ChangelogBatch& batch) = 0;
  // Event-time progress, in order with the batches (every batch emitted before it is older).
  virtual absl::Status EmitWatermark(const Watermark& watermark) { return absl::OkStatus(); }
};

struct OperatorContext {
  std::string job_id;
  // The plan's stable id of this operator's keyed state (PlanNode.state_id; 0: none). It prefixes
  // the operator's state keys and names its store.
  uint32_t state_id = 0;
  int subtask_index = 0;  // 0-based
  int parallelism = 1;
  int max_parallelism = kMaxParallelism;
  // This subtask's own state store (one RocksDB instance), owned by the worker until the job ends;
  // null when state_id is 0.
  KeyedStateBackend* state = nullptr;
  // Budget of a keyed operator's in-memory cache of hot state in front of RocksDB (StateCache);
  // 0: none, every change reaches RocksDB with its batch.
  size_t state_cache_bytes = 0;
  // Set when the task is cancelled; an operator that must wait (an exchange sender out of credit)
  // polls it so that a cancelled task never hangs. Null: never cancelled.
  const std::atomic<bool>* cancelled = nullptr;
  // Checkpoint mode (TaskCheckpointing.exactly_once): an input gate aligns barriers when set and
  // only counts them otherwise.
  bool exactly_once = true;
  // The job takes checkpoints: a sink commits its output when they complete (else at the end).
  bool checkpointing = false;
  // The job's attempt (0 first, +1 per restart); names what a subtask leaves on disk, so that a
  // late task of an older attempt never writes over the current one's files.
  int attempt = 0;
  // The task's source, for a WatermarkAssigner chained after it (per-split watermarks); null in a
  // task fed by exchanges.
  const Source* source = nullptr;
  // Wakes the task driver from an idle wait (new input arrived for a source). Thread-safe; may be
  // empty.
  std::function<void()> wakeup;
};

class Operator {
 public:
  virtual ~Operator() = default;

  void set_output(Output* output) { output_ = output; }

  virtual absl::Status Open(const OperatorContext& ctx) { return absl::OkStatus(); }
  // `input` is the 0-based input index (Union has several; most operators have one).
  virtual absl::Status Process(int input, const ChangelogBatch& batch) = 0;
  virtual absl::Status Finish() { return absl::OkStatus(); }
  // Instead of Finish: the inputs ended because the job stops after a savepoint (STOP JOB ... WITH
  // SAVEPOINT, Flink's end of data without drain), once this task handled the savepoint's
  // completion. Nothing is flushed or fired: what follows the savepoint is left to its restore.
  // Only an operator whose output leaves the task (an exchange sink) passes the stop on.
  virtual absl::Status EndAtStop() { return absl::OkStatus(); }
  // The combined watermark of the operator's inputs advanced (the driver combines several inputs,
  // see WatermarkCombiner). Operators without event-time logic pass it on.
  virtual absl::Status ProcessWatermark(const Watermark& watermark) {
    return EmitWatermark(watermark);
  }
  // Called by the driver at least every ~10 ms while the task runs (also while it idles), for
  // time-based work such as flushing a buffer after a timeout. Never called after Finish().
  virtual absl::Status OnTick(std::chrono::steady_clock::time_point now) {
    return absl::OkStatus();
  }
  // Releases resources held in memory; called once, also after failures. Keyed state stays in the
  // store (the worker drops it when the job ends).
  virtual absl::Status Close() { return absl::OkStatus(); }
  // The task failed with `cause`; called before Close(). An operator whose output leaves the task
  // (an exchange sink) passes the cause on, so consumers fail naming the first cause.
  virtual void Abort(const absl::Status& cause) {}

  // --- checkpoint hooks (see the call order above) ---

  // Barrier `checkpoint_id` reached the operator: emit what is buffered (a mini-batch), so that the
  // barrier follows every row of the epoch downstream. May call Emit.
  virtual absl::Status PrepareSnapshotPreBarrier(int64_t checkpoint_id) { return absl::OkStatus(); }
  // Records what the state store does not hold (in-memory state, timers) into `out`, and makes the
  // store complete (writes cached changes back) so that the runtime can snapshot it next. Never
  // emits.
  virtual absl::Status SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) {
    return absl::OkStatus();
  }
  // After Open, before any input: takes back what SnapshotState recorded (the store is already
  // restored by the runtime).
  virtual absl::Status RestoreState(const OperatorSnapshot& snapshot) { return absl::OkStatus(); }
  // Instead of RestoreState when the checkpoint was taken at another parallelism (a rescale):
  // `snapshots` are what SnapshotState recorded at every old subtask whose key groups overlap this
  // subtask's, and the store already holds exactly the keys of this subtask's key groups. A keyed
  // operator keeps the timers and bookkeeping of the key groups it owns now (OwnedKeyGroups) and
  // restarts from the smallest recorded watermark. The default refuses: the coordinator rescales
  // only operators whose state can be split so (docs/savepoints.md).
  virtual absl::Status RestoreRescaledState(std::span<const OperatorSnapshot> snapshots) {
    return absl::FailedPreconditionError(
        "its state cannot be restored at another parallelism than it was taken at");
  }
  // Every subtask of the job completed checkpoint `checkpoint_id` (sinks commit here).
  virtual absl::Status NotifyCheckpointComplete(int64_t checkpoint_id) { return absl::OkStatus(); }
  // After Finish: output that the next completed checkpoint must still commit (a transactional
  // sink's last part). While any operator has some, the task keeps running to take part in
  // checkpoints (it is triggered directly, its inputs having ended), as Flink's final checkpoint.
  virtual bool HasUncommittedOutput() const { return false; }
  // After every operator of the task snapshotted checkpoint `checkpoint_id`: an operator whose
  // output leaves the task (an exchange sink) sends the barrier on every channel, behind every row
  // it emitted before. Operators inside the task need nothing: the driver calls their hooks itself.
  virtual absl::Status ForwardBarrier(int64_t checkpoint_id) { return absl::OkStatus(); }

  // Rows an event-time operator dropped because they arrived after their windows fired; safe to
  // read from any thread.
  virtual uint64_t late_rows_dropped() const { return 0; }
  // Bytes of keyed state the operator holds in memory (in front of its store). Called from other
  // threads (metrics), so implementations read an atomic.
  virtual uint64_t state_bytes_in_memory() const { return 0; }

  // Rows seen and emitted, for metrics and tests.
  uint64_t rows_in() const { return rows_in_; }
  uint64_t rows_out() const { return rows_out_; }

 protected:
  absl::Status Emit(const ChangelogBatch& batch) {
    if (batch.empty()) return absl::OkStatus();
    rows_out_ += batch.num_rows();
    return output_->Emit(batch);
  }
  // Emits `batch` (when it has rows) and clears it for reuse.
  absl::Status EmitAndClear(ChangelogBatch* batch) {
    absl::Status s = Emit(*batch);
    batch->Clear();
    return s;
  }
  // EmitAndClear once `batch` holds `max_rows` rows: bounds an output batch built row by row.
  absl::Status EmitWhenFull(ChangelogBatch* batch, size_t max_rows) {
    return batch->num_rows() < max_rows ? absl::OkStatus() : EmitAndClear(batch);
  }
  void CountIn(const ChangelogBatch& batch) { rows_in_ += batch.num_rows(); }
  absl::Status EmitWatermark(const Watermark& watermark) {
    return output_->EmitWatermark(watermark);
  }

  Output* output_ = nullptr;

 private:
  uint64_t rows_in_ = 0;
  uint64_t rows_out_ = 0;
};

}  // namespace eddy
