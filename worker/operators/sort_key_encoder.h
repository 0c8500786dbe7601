// Encodes the ORDER BY columns of a batch row into bytes whose lexicographic (unsigned byte) order
// is the ORDER BY order: two rows compare as their sort keys compare, and rows with equal sort keys
// tie. Top-N keeps a partition's rows sorted on these bytes, so ranking needs no decoding.
//
// Per field: one flag byte (0x00 NULL placed first, 0x01 a value, 0x02 NULL placed last; NULL's
// place follows nulls_first whatever the direction, as Flink), then for a value its
// order-preserving bytes, all inverted for a descending field:
//   BOOLEAN false < true, one byte;
//   integers, DATE, TIMESTAMP, DECIMAL (unscaled; one scale per column), INTERVAL: widened to
//   int64,
//     8 bytes big-endian with the sign bit flipped;
//   FLOAT/DOUBLE: the IEEE bits made monotonic (big-endian, sign flipped, negatives inverted);
//     -0.0 encodes as 0.0 (they compare equal, as Flink), NaN above +Infinity (Flink's comparison
//     leaves NaN unordered);
//   STRING: the UTF-8 bytes in unsigned byte order (shorter prefix first), each 0x00 escaped as
//     0x00 0xFF and the end marked by 0x00 0x00, so that no encoding is a prefix of another.
// Not stable across type changes of a column; stored with the rows it orders.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/batch/changelog_batch.h"
#include "common/types/data_type.h"

namespace eddy {

// One ORDER BY item: an input column and its direction.
struct SortKeyField {
  int column = 0;
  bool descending = false;
  bool nulls_first = false;
};

class SortKeyEncoder {
 public:
  SortKeyEncoder() = default;  // no ORDER BY: every row has the empty key
  // `fields` index into `input_types`; InvalidArgument naming `op` if one is out of range.
  static absl::StatusOr<SortKeyEncoder> Create(const char* op,
                                               const std::vector<DataType>& input_types,
                                               std::vector<SortKeyField> fields);

  const std::vector<SortKeyField>& fields() const { return fields_; }

  // Appends the sort key of `row` to `out`.
  void Encode(const ChangelogBatch& batch, size_t row, std::string* out) const;

 private:
  explicit SortKeyEncoder(std::vector<SortKeyField> fields) : fields_(std::move(fields)) {}

  std::vector<SortKeyField> fields_;
};

}  // namespace eddy
