#include "worker/operators/changelog_materialize.h"

#include <numeric>
#include <utility>

#include "common/base/status_macros.h"

namespace eddy {
namespace {
constexpr size_t kOutputBatchRows = 4096;
}  // namespace

absl::StatusOr<std::unique_ptr<ChangelogMaterializeOperator>> ChangelogMaterializeOperator::Create(
    std::vector<DataType> input_types) {
  std::vector<int> all(input_types.size());
  std::iota(all.begin(), all.end(), 0);
  ASSIGN_OR_RETURN(KeyEncoder encoder, KeyEncoder::Create(input_types, std::move(all)));
  return std::unique_ptr<ChangelogMaterializeOperator>(
      new ChangelogMaterializeOperator(std::move(input_types), std::move(encoder)));
}

ChangelogMaterializeOperator::ChangelogMaterializeOperator(std::vector<DataType> types,
                                                           KeyEncoder encoder)
    : types_(std::move(types)), encoder_(std::move(encoder)), rows_(types_) {}

absl::Status ChangelogMaterializeOperator::Process(int input, const ChangelogBatch& batch) {
  CountIn(batch);
  for (size_t r = 0; r < batch.num_rows(); ++r) {
    key_buf_.clear();
    encoder_.Encode(batch, r, &key_buf_);
    auto [it, added] = row_of_.try_emplace(key_buf_, static_cast<uint32_t>(counts_.size()));
    if (added) {
      rows_.AppendRow(batch, r, RowKind::kInsert);
      counts_.push_back(0);
    }
    counts_[it->second] += IsAccumulate(batch.kind(r)) ? 1 : -1;
  }
  return absl::OkStatus();
}

absl::Status ChangelogMaterializeOperator::ProcessWatermark(const Watermark& watermark) {
  held_watermark_ = watermark;
  return absl::OkStatus();
}

absl::Status ChangelogMaterializeOperator::Finish() {
  ChangelogBatch out(types_);
  for (size_t i = 0; i < counts_.size(); ++i) {
    for (int64_t n = 0; n < counts_[i]; ++n) {
      out.AppendRow(rows_, i, RowKind::kInsert);
      RETURN_IF_ERROR(EmitWhenFull(&out, kOutputBatchRows));
    }
  }
  RETURN_IF_ERROR(EmitAndClear(&out));
  if (held_watermark_.has_value()) return EmitWatermark(*held_watermark_);
  return absl::OkStatus();
}

absl::Status ChangelogMaterializeOperator::Close() {
  rows_.Clear();
  row_of_.clear();
  counts_.clear();
  return absl::OkStatus();
}

}  // namespace eddy
