// Conversion of SQL type spellings (sql::TypeSpec) to DataType, with Flink's defaults and our
// limits (DECIMAL precision <= 18, TIMESTAMP kept at millisecond precision).
#pragma once

#include "absl/status/statusor.h"
#include "common/sql/ast.h"
#include "common/types/data_type.h"

namespace eddy::planner {

// BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p, s) (default (10, 0)),
// STRING, VARCHAR(n) (default 1, as Flink), CHAR(n) -> VARCHAR(n) (we never pad; CHAR's blank
// padding is not modelled), DATE, TIMESTAMP(p) (Flink's default precision is 6; values are kept in
// milliseconds, so p > 3 is stored as TIMESTAMP(3) and the default is 3). TIME, BYTES and
// TIMESTAMP_LTZ are not supported yet: an error naming the type.
absl::StatusOr<DataType> TypeFromSpec(const sql::TypeSpec& spec);

}  // namespace eddy::planner
