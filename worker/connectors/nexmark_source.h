// The nexmark connector's source: the Nexmark benchmark's auction events (NexmarkGenerator), as
// fast as the pipeline takes them (the event rate spaces event times, as the benchmark's generator
// does by default) or, with rate.limited, at the event rate; bounded by events.num or endless. The
// position a checkpoint records is the number of events this subtask emitted; a restore resumes at
// the next one.
#pragma once

#include <chrono>
#include <optional>

#include "eddy/v1/plan.pb.h"
#include "worker/connectors/nexmark_generator.h"
#include "worker/operators/source.h"

namespace eddy {

class NexmarkSource : public Source {
 public:
  NexmarkSource(v1::NexmarkSource spec, std::vector<DataType> types);
  absl::Status Open(const OperatorContext& ctx) override;
  absl::StatusOr<SourceState> Next(ChangelogBatch* out) override;
  absl::Status SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) override;
  absl::Status RestoreState(const OperatorSnapshot& snapshot) override;
  std::chrono::microseconds idle_wait() const override { return idle_wait_; }

 private:
  v1::NexmarkSource spec_;
  std::vector<DataType> types_;
  std::optional<NexmarkGenerator> generator_;
  int64_t emitted_ = 0;  // events emitted by this subtask, restored ones included
  // rate.limited: this subtask's share of the rate, and the events emitted since start_.
  double events_per_second_ = 0;
  int64_t rate_emitted_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::chrono::microseconds idle_wait_{1000};
};

}  // namespace eddy
