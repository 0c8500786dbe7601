#include "common/expr/user_function_call.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/base/status_macros.h"
#include "common/expr/eval_internal.h"
#include "common/expr/function_registry.h"

namespace eddy {
namespace {

std::string TypeList(const std::vector<DataType>& types) {
  std::vector<std::string> names;
  for (const DataType& t : types) names.push_back(t.WithNullable(true).ToString());
  return absl::StrCat("(", absl::StrJoin(names, ", "), ")");
}

}  // namespace

absl::StatusOr<std::vector<ExprPtr>> CoerceUserFunctionArgs(const std::string& name,
                                                            const UserFunction& fn,
                                                            std::vector<ExprPtr> args) {
  const std::vector<DataType>& declared = fn.arg_types();
  if (args.size() != declared.size()) {
    return absl::InvalidArgumentError(absl::StrCat("Invalid number of arguments to function '",
                                                   name, "': ", args.size(), " (it takes ",
                                                   declared.size(), ")"));
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const DataType& from = args[i]->type;
    const DataType& to = declared[i];
    if (from.SameAs(to)) continue;
    std::optional<DataType> common = CommonType(from, to);
    if (from.id == TypeId::kNull || (common.has_value() && common->SameAs(to))) {
      args[i] = MakeCast(args[i], to);
      continue;
    }
    std::vector<DataType> actual;
    for (const auto& a : args) actual.push_back(a->type);
    return absl::InvalidArgumentError(absl::StrCat("Invalid argument types for function '", name,
                                                   "': called with ", TypeList(actual),
                                                   " but it takes ", TypeList(declared)));
  }
  return args;
}

absl::StatusOr<ExprPtr> MakeUserFunctionCall(const std::string& name,
                                             std::shared_ptr<const UserFunction> fn,
                                             std::vector<ExprPtr> args) {
  if (fn->kind() != UserFunctionKind::kScalar) {
    return absl::InvalidArgumentError(
        absl::StrCat("Function '", name, "' is ",
                     fn->kind() == UserFunctionKind::kTable
                         ? "a table function: call it in FROM as LATERAL TABLE(...)"
                         : "an aggregate function: call it in an aggregating query"));
  }
  ASSIGN_OR_RETURN(args, CoerceUserFunctionArgs(name, *fn, std::move(args)));
  auto call = std::make_shared<Expr>();
  call->kind = ExprKind::kCall;
  call->type = fn->result_types()[0].WithNullable(true);
  call->function = name;
  call->args = std::move(args);
  call->user_function = std::move(fn);
  return call;
}

namespace eval_internal {

absl::StatusOr<Column> EvalUserFunction(const Expr& call, const ArgList& args, size_t n) {
  ASSIGN_OR_RETURN(std::shared_ptr<UserFunctionInstance> instance,
                   call.kernel_state.GetOrCreate<UserFunctionInstance>(
                       [&]() -> absl::StatusOr<std::shared_ptr<UserFunctionInstance>> {
                         ASSIGN_OR_RETURN(auto made, UserFunctionInstance::Create(
                                                         call.user_function, call.function));
                         return std::shared_ptr<UserFunctionInstance>(std::move(made));
                       }));
  return instance->EvalScalar(args, n);
}

}  // namespace eval_internal
}  // namespace eddy
