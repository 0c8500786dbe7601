#include "worker/operators/batch_sort.h"

#include <algorithm>
#include <numeric>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"

namespace eddy {
namespace {
constexpr size_t kOutputBatchRows = 4096;
}  // namespace

absl::StatusOr<std::unique_ptr<BatchSortOperator>> BatchSortOperator::Create(BatchSortSpec spec) {
  if (spec.offset < 0 || spec.fetch < -1) {
    return absl::InvalidArgumentError(
        absl::StrCat("Sort: bad offset ", spec.offset, " or fetch ", spec.fetch));
  }
  ASSIGN_OR_RETURN(SortKeyEncoder encoder,
                   SortKeyEncoder::Create("Sort", spec.input_types, spec.order_by));
  return std::unique_ptr<BatchSortOperator>(
      new BatchSortOperator(std::move(spec), std::move(encoder)));
}

BatchSortOperator::BatchSortOperator(BatchSortSpec spec, SortKeyEncoder encoder)
    : spec_(std::move(spec)), encoder_(std::move(encoder)), rows_(spec_.input_types) {}

absl::Status BatchSortOperator::Process(int input, const ChangelogBatch& batch) {
  CountIn(batch);
  for (size_t r = 0; r < batch.num_rows(); ++r) {
    if (batch.kind(r) != RowKind::kInsert) {
      return absl::InternalError("Sort: received a change other than +I; its input is insert-only");
    }
    rows_.AppendRow(batch, r, RowKind::kInsert);
    encoder_.Encode(batch, r, &keys_);
    key_end_.push_back(keys_.size());
  }
  if (spec_.fetch >= 0) {
    const size_t keep = static_cast<size_t>(spec_.offset + spec_.fetch);
    if (rows_.num_rows() > 2 * keep + kOutputBatchRows) Trim();
  }
  return absl::OkStatus();
}

std::vector<uint32_t> BatchSortOperator::SortedOrder() const {
  std::vector<uint32_t> order(rows_.num_rows());
  std::iota(order.begin(), order.end(), 0);
  auto key = [&](uint32_t i) {
    const uint64_t begin = i == 0 ? 0 : key_end_[i - 1];
    return std::string_view(keys_).substr(begin, key_end_[i] - begin);
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
  return order;
}

void BatchSortOperator::Trim() {
  std::vector<uint32_t> order = SortedOrder();
  order.resize(std::min(order.size(), static_cast<size_t>(spec_.offset + spec_.fetch)));
  std::sort(order.begin(), order.end());  // arrival order, so ties stay stable
  ChangelogBatch kept(spec_.input_types);
  std::string keys;
  std::vector<uint64_t> ends;
  for (uint32_t i : order) {
    kept.AppendRow(rows_, i, RowKind::kInsert);
    const uint64_t begin = i == 0 ? 0 : key_end_[i - 1];
    keys.append(keys_, begin, key_end_[i] - begin);
    ends.push_back(keys.size());
  }
  rows_ = std::move(kept);
  keys_ = std::move(keys);
  key_end_ = std::move(ends);
}

absl::Status BatchSortOperator::ProcessWatermark(const Watermark& watermark) {
  held_watermark_ = watermark;
  return absl::OkStatus();
}

absl::Status BatchSortOperator::Finish() {
  const std::vector<uint32_t> order = SortedOrder();
  const size_t begin = std::min(order.size(), static_cast<size_t>(spec_.offset));
  size_t end = order.size();
  if (spec_.fetch >= 0) end = std::min(end, begin + static_cast<size_t>(spec_.fetch));
  ChangelogBatch out(spec_.input_types);
  for (size_t i = begin; i < end; ++i) {
    out.AppendRow(rows_, order[i], RowKind::kInsert);
    RETURN_IF_ERROR(EmitWhenFull(&out, kOutputBatchRows));
  }
  RETURN_IF_ERROR(EmitAndClear(&out));
  if (held_watermark_.has_value()) return EmitWatermark(*held_watermark_);
  return absl::OkStatus();
}

absl::Status BatchSortOperator::Close() {
  rows_.Clear();
  keys_.clear();
  key_end_.clear();
  return absl::OkStatus();
}

}  // namespace eddy
