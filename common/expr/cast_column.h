// CAST / TRY_CAST of a whole column outside an expression tree, for code that converts text into
// typed columns (the filesystem connector's CSV and JSON readers and writers) with exactly the
// rules of SQL CAST (eval_cast.cc): trimmed, strict text parsing; DOUBLE as Java prints it.
#pragma once

#include "absl/status/statusor.h"
#include "common/batch/column.h"
#include "common/types/data_type.h"

namespace eddy {

// `in` converted to `to`. A value that does not convert is an error for CAST (try_cast false) and
// NULL for TRY_CAST; unsupported type pairs are always errors.
absl::StatusOr<Column> CastColumn(const Column& in, const DataType& to, bool try_cast);

}  // namespace eddy
