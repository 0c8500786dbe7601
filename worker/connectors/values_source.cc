#include "worker/connectors/values_source.h"

namespace eddy {

absl::Status ValuesSource::Open(const OperatorContext& ctx) {
  if (ctx.subtask_index != 0) batches_.clear();
  return absl::OkStatus();
}

absl::StatusOr<SourceState> ValuesSource::Next(ChangelogBatch* out) {
  if (next_ >= batches_.size()) return SourceState::kEnd;
  *out = std::move(batches_[next_++]);
  rows_out_ += out->num_rows();
  return SourceState::kData;
}

}  // namespace eddy
