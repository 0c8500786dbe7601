// InputAlignment: checkpoint barrier alignment across every input gate of one consumer task. A
// stage with two inputs (a join) has two gates; a checkpoint is complete at the task only once the
// barrier arrived on every channel of both, and in EXACTLY_ONCE mode a channel that delivered it
// stays blocked until then, whichever gate it belongs to. One BarrierAligner spans the channels of
// all gates (gate g's channel c is aligner channel offset(g) + c); each ExchangeSource of the task
// reports its gate's barriers and ends of input here, and the driver takes the completed or aborted
// alignments from whichever source it polled last. It times each alignment, from the first to the
// last channel delivering the barrier (Flink's checkpointAlignmentTime). Not thread-safe: the
// task's driver thread uses it, except the alignment time, which any thread may read.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "worker/exchange/barrier_aligner.h"
#include "worker/exchange/input_gate.h"

namespace eddy {

class InputAlignment {
 public:
  // Registers a gate before Start; returns the aligner channel of the gate's channel 0.
  int AddGate(std::shared_ptr<InputGate> gate);
  // Builds the aligner over the gates added so far (repeated calls do nothing).
  void Start(bool exactly_once);
  bool started() const { return aligner_.has_value(); }

  // `channel` is the aligner channel (the gate's offset plus its own channel number).
  void OnBarrier(int channel, int64_t checkpoint_id);
  void OnEndOfInput(int channel);
  void Abort(int64_t checkpoint_id);

  bool has_signal() const { return !signals_.empty(); }
  std::optional<BarrierSignal> TakeSignal();

  // How long the alignment of `checkpoint_id` took, in nanoseconds, if it was the last to complete
  // here; else 0. Driver thread.
  int64_t AlignmentNanosOf(int64_t checkpoint_id) const {
    return last_aligned_id_.load(std::memory_order_relaxed) == checkpoint_id
               ? last_alignment_ns_.load(std::memory_order_relaxed)
               : 0;
  }
  // Flink's checkpointAlignmentTime at steady-clock time `now_ns`: how long the current alignment
  // has taken so far, else how long the last one took (0 before any). Any thread.
  int64_t AlignmentNanos(int64_t now_ns) const;

 private:
  // The signals from index `from` on were just added at `now_ns`: a completed alignment ends
  // the timing.
  void TimeSignals(size_t from, int64_t now_ns);

  struct GateRange {
    std::shared_ptr<InputGate> gate;
    int offset = 0;
  };
  std::vector<GateRange> gates_;
  int channels_ = 0;
  std::optional<BarrierAligner> aligner_;
  std::deque<BarrierSignal> signals_;
  std::atomic<int64_t> alignment_start_ns_{0};  // of the alignment under way; 0: none
  std::atomic<int64_t> last_alignment_ns_{0};
  std::atomic<int64_t> last_aligned_id_{0};
};

}  // namespace eddy
