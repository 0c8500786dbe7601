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
      table_(0) {
  native_ = NativeAggregates::Create(functions_);
  if (native_.has_value()) table_ = GroupTable(native_->payload_bytes());
  functions_.Reset(&loaded_);
  output_types_ = encoder_.key_types();
  for (const AggregateCall& c : spec_.aggregates) output_types_.push_back(c.result_type);
  keys_ = ChangelogBatch(encoder_.key_types());
}

absl::Status HashAggregateOperator::Process(int input, const ChangelogBatch& batch) {
  CountIn(batch);
  const std::vector<int>& key_columns = encoder_.key_columns();
  for (size_t r = 0; r < batch.num_rows(); ++r) {
    if (!IsAccumulate(batch.kind(r))) {
      return absl::InternalError(
          "HashAggregate: received a retraction; a batch aggregate's input is insert-only");
    }
    key_buf_.clear();
    encoder_.Encode(batch, r, &key_buf_);
    const uint64_t hash = GroupTable::Hash(key_buf_);
    uint32_t g = table_.Find(key_buf_, hash);
    if (g == GroupTable::kNone) {
      g = table_.Insert(key_buf_, hash, 0);
      if (!native_.has_value()) {
        groups_.push_back(std::make_unique<GroupAccumulators>());
        functions_.Reset(groups_.back().get());
      }
      for (size_t k = 0; k < key_columns.size(); ++k) {
        keys_.mutable_column(k).AppendFrom(batch.column(key_columns[k]), r);
      }
      keys_.mutable_kinds().push_back(RowKind::kInsert);
    }
    if (native_.has_value()) {
      native_->Update(table_.payload(g), batch, r, /*accumulate=*/true);
    } else {
      functions_.Update(groups_[g].get(), batch, r, /*accumulate=*/true);
    }
  }
  return functions_.status();  // a user-defined aggregate that failed fails the task
}

absl::Status HashAggregateOperator::ProcessWatermark(const Watermark& watermark) {
  held_watermark_ = watermark;
  return absl::OkStatus();
}

absl::Status HashAggregateOperator::Finish() {
  ChangelogBatch out(output_types_);
  const size_t num_keys = encoder_.key_columns().size();
  const bool empty_global = num_keys == 0 && table_.size() == 0;
  const size_t num_groups = empty_global ? 1 : table_.size();
  for (uint32_t g = 0; g < num_groups; ++g) {
    const GroupAccumulators* acc = &loaded_;
    if (empty_global) {
      functions_.Reset(&loaded_);
    } else if (native_.has_value()) {
      native_->Load(table_.payload(g), &loaded_);
    } else {
      acc = groups_[g].get();
    }
    functions_.GetValues(*acc, &values_);
    for (size_t k = 0; k < num_keys; ++k) out.mutable_column(k).AppendFrom(keys_.column(k), g);
    for (size_t i = 0; i < values_.size(); ++i) {
      functions_.AppendValue(i, values_[i], &out.mutable_column(num_keys + i));
    }
    out.mutable_kinds().push_back(RowKind::kInsert);
    RETURN_IF_ERROR(EmitWhenFull(&out, kOutputBatchRows));
  }
  RETURN_IF_ERROR(functions_.status());
  RETURN_IF_ERROR(EmitAndClear(&out));
  if (held_watermark_.has_value()) return EmitWatermark(*held_watermark_);
  return absl::OkStatus();
}

absl::Status HashAggregateOperator::Close() {
  table_.Clear();
  groups_.clear();
  keys_.Clear();
  return absl::OkStatus();
}

}  // namespace eddy
