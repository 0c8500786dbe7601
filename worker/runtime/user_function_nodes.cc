#include "worker/runtime/user_function_nodes.h"

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/expr_proto.h"
#include "common/expr/user_function_call.h"
#include "common/types/type_proto.h"
#include "common/udf/user_library.h"
#include "worker/operators/correlate_operator.h"

namespace eddy {

absl::StatusOr<BuiltNode> BuildCorrelate(const v1::PlanNode& node,
                                         const std::vector<DataType>& in) {
  const v1::Correlate& c = node.correlate();
  ASSIGN_OR_RETURN(
      std::shared_ptr<const UserFunction> fn,
      UserLibraries::Global().Find(c.user_function().library_digest(), c.user_function().symbol()));
  if (fn->kind() != UserFunctionKind::kTable) {
    return absl::InvalidArgumentError(
        absl::StrCat("Correlate: '", c.function(), "' is not a table function"));
  }
  std::vector<ExprPtr> args;
  for (const auto& a : c.args()) {
    ASSIGN_OR_RETURN(ExprPtr e, ExprFromProto(a, in));
    args.push_back(std::move(e));
  }
  ASSIGN_OR_RETURN(args, CoerceUserFunctionArgs(c.function(), *fn, std::move(args)));
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i]->type.SameAs(fn->arg_types()[i])) {
      return absl::InvalidArgumentError(absl::StrCat("Correlate: argument ", i + 1, " of '",
                                                     c.function(), "' has the wrong type"));
    }
  }
  ASSIGN_OR_RETURN(Schema schema, SchemaFromProto(node.output_schema()));
  bool same = schema.size() == in.size() + fn->result_types().size();
  for (size_t i = 0; same && i < in.size(); ++i) same = schema.fields[i].type.SameAs(in[i]);
  for (size_t i = 0; same && i < fn->result_types().size(); ++i) {
    same = schema.fields[in.size() + i].type.SameAs(fn->result_types()[i]);
  }
  if (!same) {
    return absl::InvalidArgumentError(
        "Correlate: output schema differs from the input's columns and the function's");
  }
  BuiltNode built;
  built.op = std::make_unique<CorrelateOperator>(c.function(), std::move(fn), std::move(args),
                                                 c.left_outer());
  return built;
}

absl::StatusOr<AggregateCall> ReadUserAggregateCall(const v1::AggregateCall& c,
                                                    const std::vector<DataType>& in, bool merging) {
  AggregateCall call;
  call.kind = AggKind::kUser;
  call.user_name = c.function();
  ASSIGN_OR_RETURN(
      call.user_function,
      UserLibraries::Global().Find(c.user_function().library_digest(), c.user_function().symbol()));
  if (call.user_function->kind() != UserFunctionKind::kAggregate) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", c.function(), "' is not an aggregate function"));
  }
  call.user_args.assign(c.user_args().begin(), c.user_args().end());
  call.arg = c.arg();
  const int width = static_cast<int>(in.size());
  if (merging) {
    if (call.arg < 0 || call.arg >= width) {
      return absl::InvalidArgumentError(absl::StrCat("partial column ", call.arg, " out of range"));
    }
  } else {
    for (int a : call.user_args) {
      if (a < 0 || a >= width) {
        return absl::InvalidArgumentError(absl::StrCat("aggregate argument ", a, " out of range"));
      }
    }
  }
  if (c.has_arg_type()) {
    ASSIGN_OR_RETURN(call.arg_type, TypeFromProto(c.arg_type()));
  }
  ASSIGN_OR_RETURN(call.result_type, TypeFromProto(c.result_type()));
  call.distinct = c.distinct();
  return call;
}

}  // namespace eddy
