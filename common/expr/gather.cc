#include "common/expr/gather.h"

#include "common/expr/eval_internal.h"

namespace eddy {
namespace {

template <typename T>
Column GatherFixed(const Column& c, const std::vector<uint32_t>& rows) {
  const size_t n = rows.size();
  eval_internal::FixedBuilder<T> out(c.type(), n);
  const T* in = c.data<T>();
  T* dst = out.values();
  for (size_t i = 0; i < n; ++i) dst[i] = in[rows[i]];
  if (c.HasNulls()) {
    for (size_t i = 0; i < n; ++i) {
      if (c.IsNull(rows[i])) out.SetNull(i);
    }
  }
  return out.Finish();
}

}  // namespace

Column GatherColumn(const Column& c, const std::vector<uint32_t>& rows) {
  if (c.is_string()) {
    eval_internal::StringBuilder out(c.type(), rows.size());
    for (uint32_t r : rows) {
      if (c.IsNull(r)) {
        out.AppendNull();
      } else {
        out.Append(c.GetString(r));
      }
    }
    return out.Finish();
  }
  return eval_internal::DispatchFixed(c.type().id,
                                      [&](auto t) { return GatherFixed<decltype(t)>(c, rows); });
}

ChangelogBatch Gather(const ChangelogBatch& batch, const std::vector<uint32_t>& rows) {
  std::vector<Column> columns;
  columns.reserve(batch.num_columns());
  for (const Column& c : batch.columns()) columns.push_back(GatherColumn(c, rows));
  std::vector<RowKind> kinds(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) kinds[i] = batch.kind(rows[i]);
  return ChangelogBatch(std::move(columns), std::move(kinds));
}

}  // namespace eddy
