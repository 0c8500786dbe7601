#include "worker/operators/expand_operator.h"

#include <set>
#include <utility>

#include "absl/strings/str_cat.h"

namespace eddy {

absl::StatusOr<std::unique_ptr<ExpandOperator>> ExpandOperator::Create(
    std::vector<DataType> input_types, std::vector<ExpandProjection> projections,
    int expand_id_column) {
  if (projections.empty()) return absl::InvalidArgumentError("Expand: no projections");
  const size_t width = projections[0].columns.size();
  if (expand_id_column < 0 || static_cast<size_t>(expand_id_column) >= width) {
    return absl::InvalidArgumentError(absl::StrCat("Expand: expand id column ", expand_id_column,
                                                   " out of range for ", width, " columns"));
  }
  std::set<int64_t> ids;
  for (size_t p = 0; p < projections.size(); ++p) {
    const ExpandProjection& projection = projections[p];
    if (projection.columns.size() != width) {
      return absl::InvalidArgumentError(absl::StrCat("Expand: projection ", p, " has ",
                                                     projection.columns.size(),
                                                     " columns, projection 0 has ", width));
    }
    if (!ids.insert(projection.expand_id).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("Expand: expand id ", projection.expand_id, " is not unique"));
    }
    for (size_t i = 0; i < width; ++i) {
      const int c = projection.columns[i];
      if (static_cast<int>(i) != expand_id_column &&
          (c < -1 || c >= static_cast<int>(input_types.size()))) {
        return absl::InvalidArgumentError(absl::StrCat("Expand: projection ", p, " column ", i,
                                                       " reads input column ", c, " out of range"));
      }
    }
  }
  std::vector<DataType> output_types;
  for (size_t i = 0; i < width; ++i) {
    if (static_cast<int>(i) == expand_id_column) {
      output_types.push_back(DataType::BigInt().WithNullable(false));
      continue;
    }
    const DataType* type = nullptr;
    bool nulled = false;
    for (size_t p = 0; p < projections.size(); ++p) {
      const int c = projections[p].columns[i];
      if (c < 0) {
        nulled = true;
        continue;
      }
      if (type != nullptr && !type->SameAs(input_types[c])) {
        return absl::InvalidArgumentError(
            absl::StrCat("Expand: column ", i, " is ", type->WithNullable(true).ToString(),
                         " in one projection and ", input_types[c].WithNullable(true).ToString(),
                         " in projection ", p));
      }
      if (type == nullptr || input_types[c].nullable) type = &input_types[c];
    }
    if (type == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("Expand: column ", i, " is NULL in every projection, so it has no type"));
    }
    output_types.push_back(nulled ? type->WithNullable(true) : *type);
  }
  return std::unique_ptr<ExpandOperator>(new ExpandOperator(
      std::move(input_types), std::move(projections), expand_id_column, std::move(output_types)));
}

ExpandOperator::ExpandOperator(std::vector<DataType> input_types,
                               std::vector<ExpandProjection> projections, int expand_id_column,
                               std::vector<DataType> output_types)
    : input_types_(std::move(input_types)),
      projections_(std::move(projections)),
      expand_id_column_(expand_id_column),
      output_types_(std::move(output_types)) {}

absl::Status ExpandOperator::Process(int input, const ChangelogBatch& batch) {
  CountIn(batch);
  if (batch.empty()) return absl::OkStatus();
  if (batch.num_columns() != input_types_.size()) {
    return absl::InvalidArgumentError(absl::StrCat("Expand: input batch has ", batch.num_columns(),
                                                   " columns, expected ", input_types_.size()));
  }
  const size_t rows = batch.num_rows();
  const size_t total = rows * projections_.size();
  std::vector<Column> columns;
  columns.reserve(output_types_.size());
  for (size_t i = 0; i < output_types_.size(); ++i) {
    Column& out = columns.emplace_back(output_types_[i]);
    out.Reserve(total);
    for (const ExpandProjection& projection : projections_) {
      if (static_cast<int>(i) == expand_id_column_) {
        for (size_t r = 0; r < rows; ++r) out.Append<int64_t>(projection.expand_id);
      } else if (projection.columns[i] < 0) {
        out.AppendNulls(rows);
      } else {
        out.AppendRange(batch.column(projection.columns[i]), 0, rows);
      }
    }
  }
  std::vector<RowKind> kinds;
  kinds.reserve(total);
  for (size_t p = 0; p < projections_.size(); ++p) {
    kinds.insert(kinds.end(), batch.kinds().begin(), batch.kinds().end());
  }
  return Emit(ChangelogBatch(std::move(columns), std::move(kinds)));
}

}  // namespace eddy
