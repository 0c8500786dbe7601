// Serialization of bound expressions to and from eddy.v1.Expr (proto/eddy/v1/expr.proto).
// Deserialization validates everything (column indices, literal shapes, types) and re-resolves
// calls through MakeCall, so a malformed plan from the wire is an error, never a crash.
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "common/expr/expr.h"
#include "common/types/data_type.h"
#include "common/types/value.h"
#include "eddy/v1/expr.pb.h"

namespace eddy {

void ExprToProto(const Expr& e, v1::Expr* out);

// `input_types` is the schema of the operator's input; column references must be in range and
// agree with it (ignoring nullability, the input's wins).
absl::StatusOr<ExprPtr> ExprFromProto(const v1::Expr& p, const std::vector<DataType>& input_types);

void ValueToProto(const Value& v, const DataType& type, v1::Literal* out);
// Checks the boxed value fits `type` (e.g. an INT literal must hold int_value).
absl::StatusOr<Value> ValueFromProto(const v1::Literal& p, const DataType& type);

}  // namespace eddy
