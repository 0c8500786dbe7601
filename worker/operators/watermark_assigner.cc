#include "worker/operators/watermark_assigner.h"

#include <algorithm>

#include "common/base/status_macros.h"
#include "common/expr/evaluator.h"
#include "worker/operators/source.h"

namespace eddy {

absl::Status WatermarkAssignerOperator::Open(const OperatorContext& ctx) {
  last_row_ = opened_ = std::chrono::steady_clock::now();
  source_ = ctx.source;
  if (source_ != nullptr && source_->split_idle_timeout_ms() >= 0) {
    idle_timeout_ = std::chrono::milliseconds(source_->split_idle_timeout_ms());
  }
  return absl::OkStatus();
}

bool WatermarkAssignerOperator::split_mode() const {
  return source_ != nullptr && source_->num_splits() >= 0;
}

absl::Status WatermarkAssignerOperator::Process(int input, const ChangelogBatch& batch) {
  CountIn(batch);
  if (batch.empty()) return absl::OkStatus();
  ASSIGN_OR_RETURN(EvalColumn values, EvaluateView(*watermark_, batch));
  const Column& c = values.get();
  const int64_t* v = c.data<int64_t>();
  int64_t max = kMinWatermark;
  for (size_t i = 0; i < batch.num_rows(); ++i) {
    if (!c.IsNull(i)) max = std::max(max, v[i]);
  }
  RETURN_IF_ERROR(Emit(batch));
  const auto now = std::chrono::steady_clock::now();
  last_row_ = now;
  if (split_mode()) {
    const int split = source_->batch_split();
    if (split >= 0) {
      if (static_cast<size_t>(split) >= splits_.size()) {
        splits_.resize(static_cast<size_t>(split) + 1, Split{kMinWatermark, false, opened_});
      }
      Split& s = splits_[static_cast<size_t>(split)];
      s.max = std::max(s.max, max);
      s.idle = false;
      s.last_row = now;
    }
    return UpdateFromSplits(now);
  }
  max = std::max(max, current_.millis);
  if (max > current_.millis || current_.idle) {
    current_ = Watermark{max, false};
    RETURN_IF_ERROR(EmitWatermark(current_));
  }
  return absl::OkStatus();
}

absl::Status WatermarkAssignerOperator::UpdateFromSplits(
    std::chrono::steady_clock::time_point now) {
  const int n = source_->num_splits();
  if (static_cast<size_t>(n) > splits_.size()) {
    splits_.resize(static_cast<size_t>(n), Split{kMinWatermark, false, opened_});
  }
  bool all_idle = true;
  int64_t min = kMaxWatermark;
  for (int i = 0; i < n; ++i) {
    Split& s = splits_[static_cast<size_t>(i)];
    if (source_->split_finished(i)) continue;
    if (!s.idle && idle_timeout_.count() > 0 && now - s.last_row >= idle_timeout_) s.idle = true;
    if (s.idle) continue;
    all_idle = false;
    min = std::min(min, s.max);
  }
  Watermark next = current_;
  next.idle = all_idle;
  if (!all_idle) next.millis = std::max(current_.millis, min);
  if (next == current_) return absl::OkStatus();
  current_ = next;
  return EmitWatermark(current_);
}

absl::Status WatermarkAssignerOperator::OnTick(std::chrono::steady_clock::time_point now) {
  if (split_mode()) return UpdateFromSplits(now);
  if (idle_timeout_.count() <= 0 || current_.idle || now - last_row_ < idle_timeout_) {
    return absl::OkStatus();
  }
  current_.idle = true;
  return EmitWatermark(current_);
}

absl::Status WatermarkAssignerOperator::ProcessWatermark(const Watermark& w) {
  if (w.millis != kMaxWatermark || current_.millis == kMaxWatermark) return absl::OkStatus();
  current_ = Watermark{kMaxWatermark, false};
  return EmitWatermark(current_);
}

}  // namespace eddy
