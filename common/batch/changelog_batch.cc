#include "common/batch/changelog_batch.h"

#include "absl/strings/str_cat.h"

namespace eddy {

ChangelogBatch::ChangelogBatch(const std::vector<DataType>& types) {
  columns_.reserve(types.size());
  for (const auto& t : types) columns_.emplace_back(t);
}

ChangelogBatch::ChangelogBatch(std::vector<Column> columns, std::vector<RowKind> kinds)
    : columns_(std::move(columns)), kinds_(std::move(kinds)) {}

std::vector<DataType> ChangelogBatch::Types() const {
  std::vector<DataType> out;
  out.reserve(columns_.size());
  for (const auto& c : columns_) out.push_back(c.type());
  return out;
}

void ChangelogBatch::Reserve(size_t rows) {
  kinds_.reserve(rows);
  for (auto& c : columns_) c.Reserve(rows);
}

void ChangelogBatch::Clear() {
  kinds_.clear();
  for (auto& c : columns_) c.Clear();
}

void ChangelogBatch::AppendRow(const ChangelogBatch& src, size_t row, RowKind kind) {
  for (size_t i = 0; i < columns_.size(); ++i) columns_[i].AppendFrom(src.columns_[i], row);
  kinds_.push_back(kind);
}

void ChangelogBatch::AppendValues(const std::vector<Value>& values, RowKind kind) {
  for (size_t i = 0; i < columns_.size(); ++i) columns_[i].AppendValue(values[i]);
  kinds_.push_back(kind);
}

ChangelogBatch ChangelogBatch::Clone() const {
  return ChangelogBatch(std::vector<Column>(columns_), std::vector<RowKind>(kinds_));
}

size_t ChangelogBatch::ByteSize() const {
  size_t n = kinds_.size();
  for (const auto& c : columns_) {
    n += c.raw_data().size() + c.raw_validity().size() + c.raw_heap().size() +
         c.raw_offsets().size() * sizeof(uint32_t);
  }
  return n;
}

std::string FormatRow(const ChangelogBatch& batch, size_t row) {
  std::string out(RowKindShortString(batch.kind(row)));
  out += '[';
  for (size_t i = 0; i < batch.num_columns(); ++i) {
    if (i > 0) out += ", ";
    const Column& c = batch.column(i);
    out += FormatValue(c.GetValue(row), c.type());
  }
  out += ']';
  return out;
}

}  // namespace eddy
