#include "common/expr/expr_proto.h"

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/function_registry.h"
#include "common/expr/user_function_call.h"
#include "common/expr/zoned_calls.h"
#include "common/types/type_proto.h"
#include "common/udf/user_library.h"

namespace eddy {
namespace {

absl::Status PlanError(std::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat("Invalid expression in plan: ", absl::string_view(what.data(), what.size())));
}

absl::Status ValidateType(const DataType& t) {
  if (t.id == TypeId::kDecimal && (t.precision < 1 || t.precision > kMaxDecimalPrecision ||
                                   t.scale < 0 || t.scale > t.precision)) {
    return PlanError(absl::StrCat("bad DECIMAL(", t.precision, ", ", t.scale, ")"));
  }
  if (t.IsTimestampLike() && (t.precision < 0 || t.precision > 9)) {
    return PlanError(absl::StrCat("bad TIMESTAMP precision ", t.precision));
  }
  if (t.length < 0) return PlanError("negative VARCHAR length");
  return absl::OkStatus();
}

}  // namespace

void ValueToProto(const Value& v, const DataType& type, v1::Literal* out) {
  out->Clear();
  if ((type.IsCollection() || type.IsBinary()) && v.is_string()) {
    out->set_bytes_value(v.string_value());
  } else if (v.is_bool()) {
    out->set_bool_value(v.bool_value());
  } else if (v.is_int()) {
    out->set_int_value(v.int_value());
  } else if (v.is_double()) {
    out->set_double_value(v.double_value());
  } else if (v.is_string()) {
    out->set_string_value(v.string_value());
  }
}

absl::StatusOr<Value> ValueFromProto(const v1::Literal& p, const DataType& type) {
  Value v;
  v1::Literal::ValueCase expected = v1::Literal::kIntValue;
  switch (type.id) {
    case TypeId::kBoolean:
      expected = v1::Literal::kBoolValue;
      break;
    case TypeId::kFloat:
    case TypeId::kDouble:
      expected = v1::Literal::kDoubleValue;
      break;
    case TypeId::kString:
      expected = v1::Literal::kStringValue;
      break;
    case TypeId::kBinary:
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow:
      expected = v1::Literal::kBytesValue;
      break;
    case TypeId::kNull:
      expected = v1::Literal::VALUE_NOT_SET;
      break;
    default:
      break;
  }
  if (p.value_case() == v1::Literal::VALUE_NOT_SET) return Value::Null();
  if (p.value_case() != expected) {
    return PlanError(absl::StrCat("literal does not match its type ", type.ToString()));
  }
  switch (p.value_case()) {
    case v1::Literal::kBoolValue:
      return Value::Bool(p.bool_value());
    case v1::Literal::kIntValue:
      return Value::Int(p.int_value());
    case v1::Literal::kDoubleValue:
      return Value::Double(p.double_value());
    case v1::Literal::kStringValue:
      return Value::String(p.string_value());
    case v1::Literal::kBytesValue:
      return Value::String(p.bytes_value());
    default:
      return Value::Null();
  }
}

void ExprToProto(const Expr& e, v1::Expr* out) {
  out->Clear();
  TypeToProto(e.type, out->mutable_type());
  switch (e.kind) {
    case ExprKind::kColumn:
      out->set_column(e.column);
      break;
    case ExprKind::kLiteral:
      ValueToProto(e.literal, e.type, out->mutable_literal());
      break;
    case ExprKind::kCall: {
      v1::Call* call = out->mutable_call();
      call->set_function(e.function);
      if (e.user_function != nullptr) {
        call->mutable_user_function()->set_library_digest(e.user_function->library().digest());
        call->mutable_user_function()->set_symbol(e.user_function->symbol());
      }
      for (const auto& a : e.args) ExprToProto(*a, call->add_args());
      break;
    }
  }
}

absl::StatusOr<ExprPtr> ExprFromProto(const v1::Expr& p, const std::vector<DataType>& input_types) {
  ASSIGN_OR_RETURN(DataType type, TypeFromProto(p.type()));
  RETURN_IF_ERROR(ValidateType(type));
  switch (p.kind_case()) {
    case v1::Expr::kColumn: {
      int i = p.column();
      if (i < 0 || static_cast<size_t>(i) >= input_types.size()) {
        return PlanError(absl::StrCat("column index ", i, " out of range for an input of ",
                                      input_types.size(), " columns"));
      }
      if (!input_types[i].SameAs(type)) {
        return PlanError(absl::StrCat("column ", i, " has type ", type.ToString(),
                                      " but the input has ", input_types[i].ToString()));
      }
      return MakeColumnRef(i, input_types[i]);
    }
    case v1::Expr::kLiteral: {
      ASSIGN_OR_RETURN(Value v, ValueFromProto(p.literal(), type));
      return MakeLiteral(std::move(v), type);
    }
    case v1::Expr::kCall: {
      const v1::Call& c = p.call();
      std::vector<ExprPtr> args;
      args.reserve(c.args_size());
      for (const auto& a : c.args()) {
        ASSIGN_OR_RETURN(ExprPtr arg, ExprFromProto(a, input_types));
        args.push_back(std::move(arg));
      }
      ExprPtr call;
      if (c.has_user_function()) {
        ASSIGN_OR_RETURN(std::shared_ptr<const UserFunction> fn,
                         UserLibraries::Global().Find(c.user_function().library_digest(),
                                                      c.user_function().symbol()));
        ASSIGN_OR_RETURN(call, MakeUserFunctionCall(c.function(), std::move(fn), std::move(args)));
      } else if (c.function() == "CAST" || c.function() == "TRY_CAST") {
        // A cast through the session zone carries the zone as a second argument (zoned_calls.h).
        const bool zoned = IsZoneDependentCast(args[0]->type, type);
        if (args.size() != (zoned ? 2u : 1u) ||
            (zoned && (args[1]->kind != ExprKind::kLiteral || !args[1]->literal.is_string()))) {
          return PlanError(absl::StrCat(c.function(), " to ", type.ToString(), " needs ",
                                        zoned ? "its argument and a time zone" : "one argument"));
        }
        RETURN_IF_ERROR(CheckCast(args[0]->type, type));
        call = MakeCastInZone(args[0], type, c.function() == "TRY_CAST",
                              zoned ? args[1]->literal.string_value() : kDefaultTimeZone);
      } else {
        ASSIGN_OR_RETURN(call, MakeCall(c.function(), std::move(args)));
      }
      // The resolved type must be the planned one: a disagreement means the plan and this
      // worker's function rules differ, and evaluating would produce wrongly typed columns.
      if (!call->type.SameAs(type) || call->type.nullable != type.nullable) {
        return PlanError(absl::StrCat("'", c.function(), "' resolves to ", call->type.ToString(),
                                      " but the plan says ", type.ToString()));
      }
      return call;
    }
    case v1::Expr::KIND_NOT_SET:
      break;
  }
  return PlanError("expression kind not set");
}

}  // namespace eddy
