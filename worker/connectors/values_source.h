// VALUES as a bounded source (test-friendly, and what `FROM (VALUES ...)` plans to): replays literal
// batches once, then ends. With parallelism > 1 only subtask 0 emits, so each row appears once.
#pragma once

#include <vector>

#include "worker/operators/source.h"

namespace eddy {

class ValuesSource : public Source {
 public:
  explicit ValuesSource(std::vector<ChangelogBatch> batches) : batches_(std::move(batches)) {}
  absl::Status Open(const OperatorContext& ctx) override;
  absl::StatusOr<SourceState> Next(ChangelogBatch* out) override;

 private:
  std::vector<ChangelogBatch> batches_;
  size_t next_ = 0;
};

}  // namespace eddy
