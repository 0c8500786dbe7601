// Signature checking for the scalar functions whose arguments each take one kind of value (most of
// the string, time, hashing and JSON functions): one place for argument counts, implicit casts of
// integers and untyped NULLs, and error messages that name the argument at fault.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/expr/function_registry.h"
#include "common/expr/resolve_internal.h"

namespace eddy::resolve_internal {
namespace {

std::string KindText(ArgKind k) {
  switch (k) {
    case ArgKind::kString:
      return "<STRING>";
    case ArgKind::kInteger:
    case ArgKind::kBigInt:
      return "<INTEGER>";
    case ArgKind::kNumeric:
      return "<NUMERIC>";
    case ArgKind::kBoolean:
      return "<BOOLEAN>";
    case ArgKind::kTimestamp:
      return "<TIMESTAMP>";
    case ArgKind::kAny:
      return "<ANY>";
    case ArgKind::kTimeUnit:
      return "<TIME UNIT>";
  }
  return "<ANY>";
}

bool Accepts(ArgKind k, const DataType& t) {
  switch (k) {
    case ArgKind::kString:
      return t.IsString();
    case ArgKind::kInteger:
    case ArgKind::kBigInt:
      return t.IsInteger();
    case ArgKind::kNumeric:
      return t.IsNumeric();
    case ArgKind::kBoolean:
      return t.id == TypeId::kBoolean;
    case ArgKind::kTimestamp:
      return t.IsTemporal();
    case ArgKind::kAny:
      return true;
    case ArgKind::kTimeUnit:
      return t.IsString();
  }
  return false;
}

DataType NullTypeFor(ArgKind k) {
  switch (k) {
    case ArgKind::kString:
    case ArgKind::kAny:
    case ArgKind::kTimeUnit:
      return DataType::String();
    case ArgKind::kInteger:
      return DataType::Int();
    case ArgKind::kBigInt:
      return DataType::BigInt();
    case ArgKind::kNumeric:
      return DataType::Double();
    case ArgKind::kBoolean:
      return DataType::Boolean();
    case ArgKind::kTimestamp:
      return DataType::Timestamp(3);
  }
  return DataType::String();
}

std::string Form(const std::string& fn, const std::vector<ArgKind>& kinds, size_t min_args) {
  std::string out = absl::StrCat("'", fn, "(");
  for (size_t i = 0; i < kinds.size(); ++i) {
    if (i == min_args && i > 0) out += " [";
    if (i > 0) out += ", ";
    out += KindText(kinds[i]);
  }
  if (min_args < kinds.size() && min_args > 0) out += "]";
  return out + ")'";
}

std::string Actual(const std::string& fn, const std::vector<ExprPtr>& args,
                   const std::vector<ArgKind>& kinds) {
  std::string out = absl::StrCat("'", fn, "(");
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) out += ", ";
    const Expr& a = *args[i];
    if (i < kinds.size() && kinds[i] == ArgKind::kTimeUnit && a.kind == ExprKind::kLiteral &&
        a.literal.is_string()) {
      out += a.literal.string_value();  // the unit as written
    } else {
      out += a.type.id == TypeId::kNull ? "<NULL>" : TypeText(a.type);
    }
  }
  return out + ")'";
}

}  // namespace

absl::Status CheckSignature(const std::string& fn, std::vector<ExprPtr>& args,
                            const std::vector<ArgKind>& kinds, size_t min_args) {
  if (args.size() < min_args || args.size() > kinds.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Invalid number of arguments to function '", fn, "': ", args.size(),
                     ". Supported form(s): ", Form(fn, kinds, min_args)));
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (IsNullType(args[i]) || Accepts(kinds[i], args[i]->type)) continue;
    return absl::InvalidArgumentError(
        absl::StrCat("Cannot apply '", fn, "' to arguments of type ", Actual(fn, args, kinds),
                     ": argument ", i + 1, " must be ", KindText(kinds[i]),
                     ". Supported form(s): ", Form(fn, kinds, min_args)));
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (IsNullType(args[i])) {
      args[i] = MakeCast(args[i], NullTypeFor(kinds[i]));
    } else if (kinds[i] == ArgKind::kInteger) {
      args[i] = CastIfNeeded(args[i], DataType::Int());
    } else if (kinds[i] == ArgKind::kBigInt) {
      args[i] = CastIfNeeded(args[i], DataType::BigInt());
    } else if (kinds[i] == ArgKind::kNumeric) {
      args[i] = CastIfNeeded(args[i], DataType::Double());
    } else if (kinds[i] == ArgKind::kTimestamp && args[i]->type.id == TypeId::kTimestampLtz) {
      // Time functions read a TIMESTAMP_LTZ as the session zone's wall clock (as Flink).
      args[i] = MakeCast(args[i], DataType::Timestamp(args[i]->type.precision));
    }
  }
  return absl::OkStatus();
}

bool IsLiteralArg(const std::vector<ExprPtr>& args, size_t i) {
  return i < args.size() && args[i]->kind == ExprKind::kLiteral;
}

}  // namespace eddy::resolve_internal
