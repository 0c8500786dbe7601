#include "worker/operators/hash_aggregate.h"

#include <utility>

#include "common/base/status_macros.h"

namespace eddy {
namespace {
constexpr size_t kOutputBatchRows = 4096;
}  // namespace

absl::StatusOr<std::unique_ptr<HashAggregateOperator>> HashAggregateOperator::Create(
    HashAggregateSpec spec) {
  ASSIGN_OR_RETURN(KeyEncoder encoder, KeyEncoder::Create(spec.input_types, spec.group_keys));
  ASSIGN_OR_RETURN(AggregateFunctions functions,
                   AggregateFunctions::Create(spec.aggregates, spec.input_types,
                                              /*retractions_possible=*/false));
  return std::unique_ptr<HashAggregateOperator>(
      new HashAggregateOperator(std::move(spec), std::move(encoder), std::move(functions)));
}

HashAggregateOperator::HashAggregateOperator(HashAggregateSpec spec, KeyEncoder encoder,
                                             AggregateFunctions functions)
    : spec_(std::move(spec)),
      encoder_(std::move(encoder)),
      functions_(std::move(functions)),
      groups_(&encoder_, &functions_) {
  output_types_ = encoder_.key_types();
  for (const AggregateCall& c : spec_.aggregates) output_types_.push_back(c.result_type);
}

absl::Status HashAggregateOperator::Process(int input, const ChangelogBatch& batch) {
  CountIn(batch);
  for (size_t r = 0; r < batch.num_rows(); ++r) {
    if (!IsAccumulate(batch.kind(r))) {
      return absl::InternalError(
          "HashAggregate: received a retraction; a batch aggregate's input is insert-only");
    }
  }
  groups_.Update(batch, 0, batch.num_rows());
  return functions_.status();  // a user-defined aggregate that failed fails the task
}

absl::Status HashAggregateOperator::ProcessWatermark(const Watermark& watermark) {
  held_watermark_ = watermark;
  return absl::OkStatus();
}

absl::Status HashAggregateOperator::Finish() {
  ChangelogBatch out(output_types_);
  const size_t num_keys = encoder_.key_columns().size();
  auto append = [&](const GroupAccumulators& acc, uint32_t g) {
    functions_.GetValues(acc, &values_);
    for (size_t k = 0; k < num_keys; ++k) {
      out.mutable_column(k).AppendFrom(groups_.keys().column(k), g);
    }
    for (size_t i = 0; i < values_.size(); ++i) {
      functions_.AppendValue(i, values_[i], &out.mutable_column(num_keys + i));
    }
    out.mutable_kinds().push_back(RowKind::kInsert);
    return EmitWhenFull(&out, kOutputBatchRows);
  };
  if (num_keys == 0 && groups_.size() == 0) {
    functions_.Reset(&empty_);
    RETURN_IF_ERROR(append(empty_, 0));
  }
  for (uint32_t g = 0; g < groups_.size(); ++g) RETURN_IF_ERROR(append(groups_.Load(g), g));
  RETURN_IF_ERROR(functions_.status());
  RETURN_IF_ERROR(EmitAndClear(&out));
  if (held_watermark_.has_value()) return EmitWatermark(*held_watermark_);
  return absl::OkStatus();
}

absl::Status HashAggregateOperator::Close() {
  groups_.Clear();
  return absl::OkStatus();
}

}  // namespace eddy
