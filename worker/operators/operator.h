// The operator contract of the worker runtime (push model, like Flink's chained operators): the task
// driver hands each input batch to Process(); an operator emits zero or more batches to its Output,
// synchronously. Finish() is called once after every input has ended, to flush buffered results.
// Backpressure belongs to the driver: an operator never blocks or sleeps, except an exchange sink
// waiting for credit, which is how a slow consumer stops the driver (it honours ctx.cancelled).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "common/batch/changelog_batch.h"
#include "worker/operators/watermark.h"

namespace eddy {

class KeyedStateBackend;

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
  uint32_t operator_id = 0;  // unique per worker for this operator instance; prefixes its state keys
  int subtask_index = 0;     // 0-based
  int parallelism = 1;
  int max_parallelism = 128;
  KeyedStateBackend* state = nullptr;  // the worker's state backend (RocksDB)
  // Budget of a keyed operator's in-memory cache of hot state in front of RocksDB (StateCache);
  // 0: none, every change reaches RocksDB with its batch.
  size_t state_cache_bytes = 0;
  // Set when the task is cancelled; an operator that must wait (an exchange sender out of credit)
  // polls it so that a cancelled task never hangs. Null: never cancelled.
  const std::atomic<bool>* cancelled = nullptr;
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
  // Releases resources, including state; called once, also after failures.
  virtual absl::Status Close() { return absl::OkStatus(); }

  // Rows an event-time operator dropped because they arrived after their windows fired; safe to
  // read from any thread.
  virtual uint64_t late_rows_dropped() const { return 0; }

  // Rows seen and emitted, for metrics and tests.
  uint64_t rows_in() const { return rows_in_; }
  uint64_t rows_out() const { return rows_out_; }

 protected:
  absl::Status Emit(const ChangelogBatch& batch) {
    if (batch.empty()) return absl::OkStatus();
    rows_out_ += batch.num_rows();
    return output_->Emit(batch);
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
