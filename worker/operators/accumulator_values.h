// Reading an aggregate's argument from a column in the accumulators' value classes: integers,
// BOOLEAN, DECIMAL (unscaled), DATE and TIMESTAMP as int64; FLOAT and DOUBLE as double.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/batch/column.h"
#include "common/types/data_type.h"

namespace eddy {

inline int64_t ReadIntArgument(const Column& c, size_t row, TypeId t) {
  switch (t) {
    case TypeId::kBoolean:
      return c.Get<uint8_t>(row) != 0 ? 1 : 0;
    case TypeId::kTinyInt:
      return c.Get<int8_t>(row);
    case TypeId::kSmallInt:
      return c.Get<int16_t>(row);
    case TypeId::kInt:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kIntervalYearMonth:
      return c.Get<int32_t>(row);
    default:
      return c.Get<int64_t>(row);
  }
}

inline double ReadDoubleArgument(const Column& c, size_t row, TypeId t) {
  return t == TypeId::kFloat ? static_cast<double>(c.Get<float>(row)) : c.Get<double>(row);
}

}  // namespace eddy
