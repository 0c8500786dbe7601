#include "worker/operators/local_group_aggregate.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/aggregate_signature.h"

namespace eddy {

absl::StatusOr<std::unique_ptr<LocalGroupAggregateOperator>> LocalGroupAggregateOperator::Create(
    LocalGroupAggregateSpec spec) {
  if (spec.mini_batch_size <= 0 || spec.mini_batch_latency_ms <= 0) {
    return absl::InvalidArgumentError(
        "LocalGroupAggregate needs a mini-batch (positive size and latency)");
  }
  ASSIGN_OR_RETURN(KeyEncoder encoder, KeyEncoder::Create(spec.input_types, spec.group_keys));
  const bool retracting = !spec.input_insert_only;
  ASSIGN_OR_RETURN(AggregateFunctions functions,
                   AggregateFunctions::Create(spec.aggregates, spec.input_types, retracting));
  bool has_count_star = false;
  for (size_t i = 0; i < spec.aggregates.size(); ++i) {
    const AggregateCall& c = spec.aggregates[i];
    has_count_star = has_count_star || c.kind == AggKind::kCountStar;
    auto fields = AggPartialFields(c.kind, c.arg_type, c.distinct, retracting);
    if (!fields.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("LocalGroupAggregate call ", i, ": ", fields.status().message()));
    }
  }
  return std::unique_ptr<LocalGroupAggregateOperator>(new LocalGroupAggregateOperator(
      std::move(spec), std::move(encoder), std::move(functions), retracting && !has_count_star));
}

LocalGroupAggregateOperator::LocalGroupAggregateOperator(LocalGroupAggregateSpec spec,
                                                         KeyEncoder encoder,
                                                         AggregateFunctions functions,
                                                         bool append_row_count)
    : spec_(std::move(spec)),
      encoder_(std::move(encoder)),
      functions_(std::move(functions)),
      append_row_count_(append_row_count),
      groups_(&encoder_, &functions_) {
  output_types_ = encoder_.key_types();
  for (const AggregateCall& c : spec_.aggregates) {
    auto fields = AggPartialFields(c.kind, c.arg_type, c.distinct, !spec_.input_insert_only);
    for (const AggPartialField& f : *fields) output_types_.push_back(f.type);  // ok: see Create
  }
  if (append_row_count_) output_types_.push_back(AggPartialRowCountField().type);
  out_ = ChangelogBatch(output_types_);
}

absl::Status LocalGroupAggregateOperator::Process(int input, const ChangelogBatch& batch) {
  CountIn(batch);
  const size_t n = batch.num_rows();
  if (spec_.input_insert_only) {
    for (size_t r = 0; r < n; ++r) {
      if (!IsAccumulate(batch.kind(r))) {
        return absl::InternalError(
            "LocalGroupAggregate was planned for insert-only input but received a retraction");
      }
    }
  }
  // The rows up to the mini-batch's size at a time; a full mini-batch is flushed.
  const size_t size = std::max<size_t>(1, static_cast<size_t>(spec_.mini_batch_size));
  for (size_t begin = 0; begin < n;) {
    const size_t end = std::min(n, begin + (size - std::min(size - 1, pending_rows_)));
    if (pending_rows_ == 0) pending_since_ = std::chrono::steady_clock::now();
    groups_.Update(batch, begin, end);
    pending_rows_ += end - begin;
    begin = end;
    if (pending_rows_ >= size) RETURN_IF_ERROR(Flush());
  }
  return functions_.status();  // a user-defined aggregate that failed fails the task
}

absl::Status LocalGroupAggregateOperator::OnTick(std::chrono::steady_clock::time_point now) {
  if (pending_rows_ == 0) return absl::OkStatus();
  if (now - pending_since_ < std::chrono::milliseconds(spec_.mini_batch_latency_ms)) {
    return absl::OkStatus();
  }
  return Flush();
}

absl::Status LocalGroupAggregateOperator::Finish() {
  if (pending_rows_ == 0) return absl::OkStatus();
  return Flush();
}

absl::Status LocalGroupAggregateOperator::Flush() {
  out_.Clear();
  const size_t num_keys = encoder_.key_columns().size();
  const size_t row_count_column = output_types_.size() - 1;
  for (uint32_t i = 0; i < groups_.size(); ++i) {
    const GroupAccumulators& acc = groups_.Load(i);
    if (functions_.IsEmptyDelta(acc)) continue;
    for (size_t k = 0; k < num_keys; ++k) {
      out_.mutable_column(k).AppendFrom(groups_.keys().column(k), i);
    }
    functions_.AppendPartials(acc, &out_, num_keys);
    if (append_row_count_) out_.mutable_column(row_count_column).Append<int64_t>(acc.row_count);
    out_.mutable_kinds().push_back(RowKind::kInsert);
  }
  groups_.Reset();  // keeps its memory: the next mini-batch likely has as many keys
  pending_rows_ = 0;
  RETURN_IF_ERROR(functions_.status());
  return Emit(out_);
}

}  // namespace eddy
