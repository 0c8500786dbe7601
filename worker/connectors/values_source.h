// VALUES as a bounded source (test-friendly, and what `FROM (VALUES ...)` plans to): replays
// literal batches once, then ends. With parallelism > 1 only subtask 0 emits, so each row appears
// once. Its checkpoint position is the number of rows emitted ("rows"), always at a batch boundary.
#pragma once

#include <vector>

#include "worker/operators/source.h"

namespace eddy {

class ValuesSource : public Source {
 public:
  explicit ValuesSource(std::vector<ChangelogBatch> batches) : batches_(std::move(batches)) {}
  absl::Status Open(const OperatorContext& ctx) override;
  absl::StatusOr<SourceState> Next(ChangelogBatch* out) override;
  absl::Status SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) override;
  absl::Status RestoreState(const OperatorSnapshot& snapshot) override;

 private:
  std::vector<ChangelogBatch> batches_;
  size_t next_ = 0;
  int64_t emitted_ = 0;  // rows of batches_[0, next_)
};

}  // namespace eddy
