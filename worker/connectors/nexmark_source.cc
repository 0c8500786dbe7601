#include "worker/connectors/nexmark_source.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"

namespace eddy {

NexmarkSource::NexmarkSource(v1::NexmarkSource spec, std::vector<DataType> types)
    : spec_(std::move(spec)), types_(std::move(types)) {}

absl::Status NexmarkSource::Open(const OperatorContext& ctx) {
  if (static_cast<size_t>(spec_.fields_size()) != types_.size()) {
    return absl::InvalidArgumentError(absl::StrCat("nexmark source: ", spec_.fields_size(),
                                                   " fields for ", types_.size(), " columns"));
  }
  if (spec_.first_event_rate() <= 0 ||
      spec_.person_proportion() + spec_.auction_proportion() + spec_.bid_proportion() <= 0) {
    return absl::InvalidArgumentError(
        "nexmark source: event rate and proportions must be positive");
  }
  generator_.emplace(spec_, ctx.subtask_index, ctx.parallelism);
  if (spec_.rate_limited()) {
    events_per_second_ = spec_.first_event_rate() / std::max(1, ctx.parallelism);
  }
  start_ = std::chrono::steady_clock::now();
  return absl::OkStatus();
}

absl::StatusOr<SourceState> NexmarkSource::Next(ChangelogBatch* out) {
  size_t n = kDefaultBatchRows;
  if (generator_->num_events() >= 0) {
    const int64_t left = generator_->num_events() - emitted_;
    if (left <= 0) return SourceState::kEnd;
    n = std::min<size_t>(n, static_cast<size_t>(left));
  }
  if (events_per_second_ > 0) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double allowed = events_per_second_ * elapsed + 1;  // the first event goes out at once
    if (static_cast<double>(rate_emitted_) >= allowed) {
      const double wait_s =
          (static_cast<double>(rate_emitted_) + 1 - allowed + 1) / events_per_second_;
      idle_wait_ = std::chrono::microseconds(
          std::clamp<int64_t>(static_cast<int64_t>(wait_s * 1e6), 100, 100000));
      return SourceState::kIdle;
    }
    n = std::min<size_t>(n, static_cast<size_t>(allowed - static_cast<double>(rate_emitted_)));
    n = std::max<size_t>(n, 1);
  }
  *out = ChangelogBatch(types_);
  out->Reserve(n);
  for (int f = 0; f < spec_.fields_size(); ++f) {
    generator_->Append(spec_.fields(f), emitted_, n, &out->mutable_column(f));
  }
  out->mutable_kinds().assign(n, RowKind::kInsert);
  emitted_ += static_cast<int64_t>(n);
  rate_emitted_ += static_cast<int64_t>(n);
  rows_out_ += n;
  return SourceState::kData;
}

absl::Status NexmarkSource::SnapshotState(int64_t, OperatorSnapshot* out) {
  out->PutInt64("events", emitted_);
  return absl::OkStatus();
}

absl::Status NexmarkSource::RestoreState(const OperatorSnapshot& snapshot) {
  ASSIGN_OR_RETURN(std::optional<int64_t> events, snapshot.GetInt64("events"));
  if (!events) return absl::OkStatus();
  if (*events < 0 || (generator_->num_events() >= 0 && *events > generator_->num_events())) {
    return absl::DataLossError(absl::StrCat("nexmark source: restored position of ", *events,
                                            " events is beyond this subtask's ",
                                            generator_->num_events()));
  }
  emitted_ = *events;
  return absl::OkStatus();
}

}  // namespace eddy
