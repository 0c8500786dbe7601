#include "worker/connectors/sink_not_null_enforcer.h"

#include <cstddef>
#include <utility>

#include "absl/strings/str_cat.h"

namespace eddy {

SinkNotNullEnforcer::SinkNotNullEnforcer(std::unique_ptr<Operator> sink,
                                         std::vector<NotNullColumn> columns,
                                         NotNullEnforcement enforcement)
    : sink_(std::move(sink)), columns_(std::move(columns)), enforcement_(enforcement) {}

absl::Status SinkNotNullEnforcer::NullValueError(const std::string& name) {
  return absl::InvalidArgumentError(
      absl::StrCat("Column '", name,
                   "' is NOT NULL, however, a null value is being written into it. You can set job "
                   "configuration 'table.exec.sink.not-null-enforcer'='DROP' to suppress this "
                   "exception and drop such records silently."));
}

absl::Status SinkNotNullEnforcer::Open(const OperatorContext& ctx) {
  // The task set this operator's output; a sink that emits (a partition-commit report) uses it.
  sink_->set_output(output_);
  return sink_->Open(ctx);
}

absl::Status SinkNotNullEnforcer::Process(int input, const ChangelogBatch& batch) {
  CountIn(batch);
  bool any_null = false;
  for (const NotNullColumn& c : columns_) {
    if (c.index < 0 || static_cast<size_t>(c.index) >= batch.num_columns()) {
      return absl::InternalError(absl::StrCat("NOT NULL column ", c.index, " ('", c.name,
                                              "') is not among the sink's ", batch.num_columns(),
                                              " input columns"));
    }
    any_null = any_null || batch.column(c.index).HasNulls();
  }
  if (!any_null) return sink_->Process(input, batch);

  if (enforcement_ == NotNullEnforcement::kError) {
    // As Flink, which checks row by row: the first row with a null names its first NOT NULL
    // column (in column order) that is null.
    for (size_t row = 0; row < batch.num_rows(); ++row) {
      for (const NotNullColumn& c : columns_) {
        if (batch.column(c.index).IsNull(row)) return NullValueError(c.name);
      }
    }
  }
  // DROP: pass on the rows without a null in a NOT NULL column, copied run by run.
  if (kept_.num_columns() != batch.num_columns()) kept_ = ChangelogBatch(batch.Types());
  kept_.Clear();
  uint64_t dropped = 0;
  size_t run = 0;  // first row of the current run of kept rows
  auto keep = [&](size_t end) {
    if (end == run) return;
    for (size_t c = 0; c < batch.num_columns(); ++c) {
      kept_.mutable_column(c).AppendRange(batch.column(c), run, end);
    }
    const auto kinds = batch.kinds().begin();
    kept_.mutable_kinds().insert(kept_.mutable_kinds().end(),
                                 kinds + static_cast<std::ptrdiff_t>(run),
                                 kinds + static_cast<std::ptrdiff_t>(end));
  };
  for (size_t row = 0; row < batch.num_rows(); ++row) {
    bool null = false;
    for (const NotNullColumn& c : columns_) null = null || batch.column(c.index).IsNull(row);
    if (!null) continue;
    keep(row);
    run = row + 1;
    ++dropped;
  }
  keep(batch.num_rows());
  null_rows_dropped_.fetch_add(dropped, std::memory_order_relaxed);
  if (kept_.empty()) return absl::OkStatus();
  return sink_->Process(input, kept_);
}

}  // namespace eddy
