// The scalar functions, one row each: canonical name, aliases, how a call is typed (resolve) and
// computed (eval), and whether its value may change between calls. MakeCall (the binder), the
// evaluator, SHOW FUNCTIONS and constant folding all read this one table, so a new function is a
// row here plus its resolver and kernel (docs/contributing.md).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/batch/changelog_batch.h"
#include "common/batch/column.h"
#include "common/expr/expr.h"

namespace eddy {

struct FunctionDef {
  std::string_view name;                  // canonical, upper case: what calls carry
  std::vector<std::string_view> aliases;  // other spellings MakeCall accepts (MOD for %)
  // Types a call (arguments already bound) or explains why it does not type.
  absl::StatusOr<ExprPtr> (*resolve)(const std::string& name, std::vector<ExprPtr> args);
  // Computes a resolved call over a batch from its evaluated arguments (each with n rows)...
  absl::StatusOr<Column> (*eval)(const Expr& call, const std::vector<const Column*>& args,
                                 size_t n) = nullptr;
  // ...or evaluates its own arguments, only on the rows that need them (AND, OR, CASE,
  // COALESCE). Neither: the resolver rewrites the call into another function (IF into CASE).
  absl::StatusOr<Column> (*eval_lazy)(const Expr& call, const ChangelogBatch& input) = nullptr;
  bool deterministic = true;  // false: never folded into a constant at planning time
};

// Every scalar function, in SHOW FUNCTIONS order by family.
const std::vector<FunctionDef>& ScalarFunctions();
// The row for a name or alias, in any case; nullptr when there is none.
const FunctionDef* FindFunction(std::string_view name);

}  // namespace eddy
