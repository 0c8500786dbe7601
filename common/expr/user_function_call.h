// Calls of user-defined functions (CREATE FUNCTION, docs/udf.md) in bound expressions: arguments
// converted implicitly to the declared types as Flink does (INT to BIGINT, VARCHAR to STRING, ...),
// the result the declared type, always nullable. The binder and plan deserialization build them
// here; the evaluator runs them through one instance of the function per expression.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/expr/expr.h"
#include "common/udf/user_function.h"

namespace eddy {

// `args` converted to `fn`'s declared argument types. Errors (InvalidArgument) name the function:
// "Invalid number of arguments to function 'f': 3 (it takes 2)", "Invalid argument types for
// function 'f': called with (INT, STRING) but it takes (BIGINT, DOUBLE)".
absl::StatusOr<std::vector<ExprPtr>> CoerceUserFunctionArgs(const std::string& name,
                                                            const UserFunction& fn,
                                                            std::vector<ExprPtr> args);

// A call of the scalar function `fn` registered as `name`.
absl::StatusOr<ExprPtr> MakeUserFunctionCall(const std::string& name,
                                             std::shared_ptr<const UserFunction> fn,
                                             std::vector<ExprPtr> args);

}  // namespace eddy
