#include "worker/operators/window_table_function.h"

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"

namespace eddy {

absl::StatusOr<std::unique_ptr<WindowTableFunctionOperator>> WindowTableFunctionOperator::Create(
    std::vector<DataType> input_types, WindowShape window, int time_column, WindowClock clock) {
  RETURN_IF_ERROR(window.Validate("WindowTableFunction", input_types, time_column));
  return std::unique_ptr<WindowTableFunctionOperator>(new WindowTableFunctionOperator(
      std::move(input_types), window, time_column, std::move(clock)));
}

WindowTableFunctionOperator::WindowTableFunctionOperator(std::vector<DataType> input_types,
                                                         WindowShape window, int time_column,
                                                         WindowClock clock)
    : output_types_(std::move(input_types)),
      window_(window),
      time_column_(time_column),
      clock_(std::move(clock)) {
  // window_start, window_end: TIMESTAMP(3); window_time: the time attribute's type (TIMESTAMP(3)
  // or TIMESTAMP_LTZ(3)).
  const TypeId time_id = output_types_[time_column].id;
  output_types_.push_back(DataType::Timestamp(3).WithNullable(false));
  output_types_.push_back(DataType::Timestamp(3).WithNullable(false));
  output_types_.push_back(DataType{time_id, 3}.WithNullable(false));
  out_ = ChangelogBatch(output_types_);
}

absl::Status WindowTableFunctionOperator::Process(int input, const ChangelogBatch& batch) {
  CountIn(batch);
  const size_t n = batch.num_rows();
  const size_t in_columns = batch.num_columns();
  const Column& time = batch.column(time_column_);
  const int64_t* ts = time.data<int64_t>();
  out_.Clear();
  out_.Reserve(n);
  uint64_t late = 0;
  for (size_t r = 0; r < n; ++r) {
    if (time.IsNull(r)) {
      return absl::InvalidArgumentError(
          absl::StrCat("WindowTableFunction: the time attribute (input column ", time_column_,
                       ") is NULL; rowtime values must not be NULL"));
    }
    ends_.clear();
    window_.AssignEnds(clock_.RowTime(ts[r]), &ends_);
    bool assigned = false;
    for (int64_t end : ends_) {
      if (end - 1 <= watermark_) continue;
      assigned = true;
      for (size_t c = 0; c < in_columns; ++c) out_.mutable_column(c).AppendFrom(batch.column(c), r);
      out_.mutable_column(in_columns).Append<int64_t>(window_.StartOf(end));
      out_.mutable_column(in_columns + 1).Append<int64_t>(end);
      out_.mutable_column(in_columns + 2).Append<int64_t>(clock_.WindowTime(end));
      out_.mutable_kinds().push_back(batch.kind(r));
    }
    if (!assigned) ++late;
  }
  if (late > 0) late_rows_dropped_.fetch_add(late, std::memory_order_relaxed);
  return Emit(out_);
}

absl::Status WindowTableFunctionOperator::ProcessWatermark(const Watermark& watermark) {
  if (!watermark.idle) watermark_ = std::max(watermark_, clock_.Progress(watermark.millis));
  return EmitWatermark(watermark);
}

}  // namespace eddy
