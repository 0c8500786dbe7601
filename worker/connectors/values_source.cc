#include "worker/connectors/values_source.h"

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"

namespace eddy {

absl::Status ValuesSource::Open(const OperatorContext& ctx) {
  if (ctx.subtask_index != 0) batches_.clear();
  return absl::OkStatus();
}

absl::StatusOr<SourceState> ValuesSource::Next(ChangelogBatch* out) {
  if (next_ >= batches_.size()) return SourceState::kEnd;
  *out = std::move(batches_[next_++]);
  rows_out_ += out->num_rows();
  emitted_ += static_cast<int64_t>(out->num_rows());
  return SourceState::kData;
}

absl::Status ValuesSource::SnapshotState(int64_t, OperatorSnapshot* out) {
  out->PutInt64("rows", emitted_);
  return absl::OkStatus();
}

absl::Status ValuesSource::RestoreState(const OperatorSnapshot& snapshot) {
  ASSIGN_OR_RETURN(std::optional<int64_t> rows, snapshot.GetInt64("rows"));
  if (!rows) return absl::OkStatus();
  // Positions are taken between batches, so whole batches are skipped.
  while (emitted_ < *rows && next_ < batches_.size()) {
    emitted_ += static_cast<int64_t>(batches_[next_].num_rows());
    batches_[next_++] = ChangelogBatch();
  }
  if (emitted_ != *rows) {
    return absl::DataLossError(absl::StrCat("VALUES source: restored position of ", *rows,
                                            " rows is not a batch boundary of its ", emitted_,
                                            " rows"));
  }
  return absl::OkStatus();
}

}  // namespace eddy
