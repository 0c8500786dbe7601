// Encodes the group-key columns of a batch row into bytes: the identity of a group for keyed state
// (state keys, in-batch hash maps) and the input of KeyGroupOf for key groups and hash shuffles.
// The encoding is stable across processes and builds, not order-preserving.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/batch/changelog_batch.h"
#include "common/batch/column.h"
#include "common/types/data_type.h"
#include "common/types/value.h"

namespace eddy {

// Format, per key column in order: one flag byte (0 = NULL, 1 = value), then for a value either its
// physical bytes little-endian (PhysicalWidth of the type; BOOLEAN normalized to 0/1) or, for
// strings, a LEB128 length followed by the bytes. The flag is written even for NOT NULL columns so
// that two plan nodes that disagree on a column's nullability still agree on the bytes (a hash
// shuffle and the aggregate behind it must compute the same key group). An empty key encodes to "".
class KeyEncoder {
 public:
  KeyEncoder() = default;  // empty key (global aggregate)
  // `key_columns` index into `input_types`; InvalidArgument if one is out of range.
  static absl::StatusOr<KeyEncoder> Create(const std::vector<DataType>& input_types,
                                           std::vector<int> key_columns);

  const std::vector<int>& key_columns() const { return key_columns_; }
  const std::vector<DataType>& key_types() const { return key_types_; }
  bool empty() const { return key_columns_.empty(); }
  // The longest key this encoder writes when every key column has a fixed width, else 0.
  size_t MaxFixedBytes() const;

  // Appends the key of `row` to `out`.
  void Encode(const ChangelogBatch& batch, size_t row, std::string* out) const;
  std::string EncodeToString(const ChangelogBatch& batch, size_t row) const {
    std::string s;
    Encode(batch, row, &s);
    return s;
  }

  // Decodes `key` into one Value per key column (cold paths, tests).
  absl::Status Decode(std::string_view key, std::vector<Value>* values) const;
  // Decodes `key` and appends one value to each of `columns` (key_types().size() columns whose
  // types have the key types' physical layout).
  absl::Status AppendToColumns(std::string_view key, std::span<Column> columns) const;

 private:
  KeyEncoder(std::vector<int> key_columns, std::vector<DataType> key_types)
      : key_columns_(std::move(key_columns)), key_types_(std::move(key_types)) {}

  std::vector<int> key_columns_;
  std::vector<DataType> key_types_;
};

}  // namespace eddy
