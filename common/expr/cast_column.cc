#include "common/expr/cast_column.h"

#include "common/expr/eval_internal.h"

namespace eddy {

absl::StatusOr<Column> CastColumn(const Column& in, const DataType& to, bool try_cast) {
  return eval_internal::EvalCast(in, to, try_cast);
}

}  // namespace eddy
