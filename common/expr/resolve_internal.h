// The type resolvers of the scalar functions (function_registry.cc), one per family: each checks a
// call's arguments, inserts implicit casts and computes the result type (Flink's rules, described
// in function_registry.h). Only the function table (function_table.cc) refers to them.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/expr/expr.h"

namespace eddy::resolve_internal {

using Resolved = absl::StatusOr<ExprPtr>;

Resolved ResolveArithmetic(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveNegate(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveComparison(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveLogic(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolvePredicate(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveLike(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveCase(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveIf(const std::string& fn, std::vector<ExprPtr> args);  // becomes CASE
Resolved ResolveCoalesce(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveStrings(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveSubstring(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveMath(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveTemporal(const std::string& fn, std::vector<ExprPtr> args);
// CAST and TRY_CAST are built with MakeCast: called as functions they are an error.
Resolved ResolveNeedsTargetType(const std::string& fn, std::vector<ExprPtr> args);

}  // namespace eddy::resolve_internal
