#include "worker/operators/watermark_assigner.h"

#include <algorithm>

#include "common/base/status_macros.h"
#include "common/expr/evaluator.h"

namespace eddy {

absl::Status WatermarkAssignerOperator::Open(const OperatorContext& ctx) {
  last_row_ = std::chrono::steady_clock::now();
  return absl::OkStatus();
}

absl::Status WatermarkAssignerOperator::Process(int input, const ChangelogBatch& batch) {
  CountIn(batch);
  if (batch.empty()) return absl::OkStatus();
  ASSIGN_OR_RETURN(EvalColumn values, EvaluateView(*watermark_, batch));
  const Column& c = values.get();
  const int64_t* v = c.data<int64_t>();
  int64_t max = current_.millis;
  for (size_t i = 0; i < batch.num_rows(); ++i) {
    if (!c.IsNull(i)) max = std::max(max, v[i]);
  }
  RETURN_IF_ERROR(Emit(batch));
  last_row_ = std::chrono::steady_clock::now();
  if (max > current_.millis || current_.idle) {
    current_ = Watermark{max, false};
    RETURN_IF_ERROR(EmitWatermark(current_));
  }
  return absl::OkStatus();
}

absl::Status WatermarkAssignerOperator::OnTick(std::chrono::steady_clock::time_point now) {
  if (idle_timeout_.count() <= 0 || current_.idle || now - last_row_ < idle_timeout_) {
    return absl::OkStatus();
  }
  current_.idle = true;
  return EmitWatermark(current_);
}

}  // namespace eddy
