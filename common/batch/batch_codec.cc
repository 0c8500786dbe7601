#include "common/batch/batch_codec.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/types/type_proto.h"

namespace eddy {

void EncodeBatch(const ChangelogBatch& batch, v1::ChangelogBatch* out) {
  out->set_num_rows(static_cast<uint32_t>(batch.num_rows()));
  out->set_row_kinds(reinterpret_cast<const char*>(batch.kinds().data()), batch.num_rows());
  for (const Column& c : batch.columns()) {
    TypeToProto(c.type(), out->add_types());
    auto* col = out->add_columns();
    col->set_data(reinterpret_cast<const char*>(c.raw_data().data()), c.raw_data().size());
    if (c.HasNulls()) {
      col->set_validity(reinterpret_cast<const char*>(c.raw_validity().data()),
                        c.raw_validity().size());
    }
    if (c.is_string()) {
      col->set_offsets(reinterpret_cast<const char*>(c.raw_offsets().data()),
                       c.raw_offsets().size() * sizeof(uint32_t));
      col->set_heap(c.raw_heap());
    }
  }
}

absl::StatusOr<ChangelogBatch> DecodeBatch(const v1::ChangelogBatch& msg) {
  const size_t n = msg.num_rows();
  if (msg.row_kinds().size() != n) {
    return absl::InvalidArgumentError(
        absl::StrCat("batch frame: ", msg.row_kinds().size(), " row kinds for ", n, " rows"));
  }
  if (msg.types_size() != msg.columns_size()) {
    return absl::InvalidArgumentError("batch frame: column and type counts differ");
  }
  std::vector<RowKind> kinds(n);
  for (size_t i = 0; i < n; ++i) {
    uint8_t k = static_cast<uint8_t>(msg.row_kinds()[i]);
    if (k > 3) return absl::InvalidArgumentError(absl::StrCat("batch frame: bad row kind ", k));
    kinds[i] = static_cast<RowKind>(k);
  }
  std::vector<Column> columns;
  columns.reserve(msg.columns_size());
  for (int i = 0; i < msg.columns_size(); ++i) {
    ASSIGN_OR_RETURN(DataType type, TypeFromProto(msg.types(i)));
    const auto& col = msg.columns(i);
    const int width = PhysicalWidth(type.id);
    if (width > 0 && col.data().size() != n * width) {
      return absl::InvalidArgumentError(absl::StrCat(
          "batch frame: column ", i, " has ", col.data().size(), " bytes, expected ", n * width));
    }
    if (!col.validity().empty() && col.validity().size() < (n + 7) / 8) {
      return absl::InvalidArgumentError(absl::StrCat("batch frame: column ", i, " validity short"));
    }
    std::vector<uint8_t> data(col.data().begin(), col.data().end());
    std::vector<uint8_t> validity(col.validity().begin(), col.validity().end());
    std::vector<uint32_t> offsets;
    if (width == 0) {
      if (col.offsets().size() != (n + 1) * sizeof(uint32_t)) {
        return absl::InvalidArgumentError(
            absl::StrCat("batch frame: column ", i, " has bad string offsets"));
      }
      offsets.resize(n + 1);
      std::memcpy(offsets.data(), col.offsets().data(), col.offsets().size());
      for (size_t r = 0; r < n; ++r) {
        if (offsets[r] > offsets[r + 1]) {
          return absl::InvalidArgumentError(
              absl::StrCat("batch frame: column ", i, " offsets not monotonic"));
        }
      }
      if (offsets[0] != 0 || offsets[n] != col.heap().size()) {
        return absl::InvalidArgumentError(
            absl::StrCat("batch frame: column ", i, " offsets do not match heap"));
      }
    }
    columns.push_back(Column::FromRaw(type, n, std::move(data), std::move(validity),
                                      std::move(offsets), col.heap()));
  }
  return ChangelogBatch(std::move(columns), std::move(kinds));
}

}  // namespace eddy
