// Bound, typed scalar expressions: what the coordinator's binder produces from SQL and what workers
// evaluate over batches (evaluator.h). Immutable and shared (ExprPtr); input columns are referenced
// by index into the operator's input schema.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/types/data_type.h"
#include "common/types/value.h"

namespace eddy {

enum class ExprKind { kColumn, kLiteral, kCall };

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Expr {
  ExprKind kind = ExprKind::kLiteral;
  DataType type;
  int column = -1;       // kColumn: index in the input schema
  Value literal;         // kLiteral
  std::string function;  // kCall: canonical name (see function_registry.h)
  std::vector<ExprPtr> args;
};

ExprPtr MakeColumnRef(int index, DataType type);
ExprPtr MakeLiteral(Value v, DataType type);

}  // namespace eddy
