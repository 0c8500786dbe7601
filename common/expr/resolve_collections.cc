// Type rules of the collection functions (collection_functions.h), as Flink's: ARRAY[..] and
// MAP[..] unify their elements, keys and values to a common type; ROW(..) names its fields EXPR$0,
// EXPR$1, ...; a[i] (i an integer) and m[k] (k cast to the key type) are nullable; r.f is nullable
// when r or the field is; CARDINALITY gives INT; ELEMENT gives the element type, nullable.
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/collection_functions.h"
#include "common/expr/function_registry.h"
#include "common/expr/resolve_internal.h"

namespace eddy {

using resolve_internal::AnyNullable;
using resolve_internal::CannotApply;
using resolve_internal::CastIfNeeded;
using resolve_internal::CommonOf;
using resolve_internal::IsNullType;
using resolve_internal::NewCall;
using resolve_internal::WrongArgCount;

namespace {

// The common type of args[i] for i in idx, with the nullability of any of them; every one of them
// cast to it.
absl::StatusOr<DataType> UnifyArgs(const std::string& fn, std::vector<ExprPtr>& args,
                                   const std::vector<size_t>& idx) {
  ASSIGN_OR_RETURN(DataType common, CommonOf(fn, args, idx));
  bool nullable = false;
  for (size_t i : idx) nullable = nullable || args[i]->type.nullable || IsNullType(args[i]);
  common = common.WithNullable(nullable);
  for (size_t i : idx) args[i] = CastIfNeeded(args[i], common);
  return common;
}

absl::StatusOr<ExprPtr> ResolveConstructor(const std::string& fn, std::vector<ExprPtr> args) {
  if (fn == "ARRAY") {
    if (args.empty()) {
      return absl::InvalidArgumentError("ARRAY[] needs at least one element (Flink's rule)");
    }
    std::vector<size_t> all;
    for (size_t i = 0; i < args.size(); ++i) all.push_back(i);
    ASSIGN_OR_RETURN(DataType element, UnifyArgs(fn, args, all));
    return NewCall(fn, std::move(args), DataType::Array(element).WithNullable(false));
  }
  if (fn == "MAP") {
    if (args.empty() || args.size() % 2 != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "MAP[] needs an even, non-zero number of arguments (key, value, ...), found ",
          args.size()));
    }
    std::vector<size_t> keys, values;
    for (size_t i = 0; i < args.size(); ++i) (i % 2 == 0 ? keys : values).push_back(i);
    ASSIGN_OR_RETURN(DataType key, UnifyArgs(fn, args, keys));
    ASSIGN_OR_RETURN(DataType value, UnifyArgs(fn, args, values));
    return NewCall(fn, std::move(args), DataType::Map(key, value).WithNullable(false));
  }
  // ROW
  if (args.empty()) return WrongArgCount(fn, 0);
  std::vector<Field> fields;
  for (size_t i = 0; i < args.size(); ++i) {
    if (IsNullType(args[i])) {
      return absl::InvalidArgumentError(absl::StrCat(
          "ROW field ", i + 1, " is an untyped NULL: cast it, e.g. CAST(NULL AS INT)"));
    }
    fields.push_back({absl::StrCat("EXPR$", i), args[i]->type});
  }
  return NewCall(fn, std::move(args), DataType::Row(std::move(fields)).WithNullable(false));
}

absl::StatusOr<ExprPtr> ResolveItem(const std::string& fn, std::vector<ExprPtr> args) {
  if (args.size() != 2) return WrongArgCount(fn, args.size());
  const DataType& c = args[0]->type;
  if (c.id == TypeId::kArray) {
    if (IsNullType(args[1])) {
      args[1] = MakeCast(args[1], DataType::Int());
    } else if (!args[1]->type.IsInteger()) {
      return absl::InvalidArgumentError(absl::StrCat("an ARRAY index must be an integer, found ",
                                                     args[1]->type.WithNullable(true).ToString()));
    }
    args[1] = CastIfNeeded(args[1], DataType::Int().WithNullable(args[1]->type.nullable));
    DataType t = c.element_type().WithNullable(true);
    return NewCall(fn, std::move(args), t);
  }
  if (c.id == TypeId::kMap) {
    const DataType& key = c.key_type();
    if (!IsNullType(args[1]) && !CommonType(key, args[1]->type).has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("a key of ", c.ToString(), " cannot be ", args[1]->type.ToString()));
    }
    if (IsNullType(args[1]) || !args[1]->type.SameAs(key)) {
      if (absl::Status s = CheckCast(args[1]->type, key); !s.ok()) return s;
      args[1] = MakeCast(args[1], key);
    }
    DataType t = c.value_type().WithNullable(true);
    return NewCall(fn, std::move(args), t);
  }
  return absl::InvalidArgumentError(absl::StrCat("'[...]' applies to an ARRAY or a MAP, not to ",
                                                 c.WithNullable(true).ToString()));
}

absl::StatusOr<ExprPtr> ResolveField(const std::string& fn, std::vector<ExprPtr> args) {
  if (args.size() != 2 || args[1]->kind != ExprKind::kLiteral || !args[1]->literal.is_string()) {
    return absl::InvalidArgumentError("FIELD takes a ROW and a field name literal");
  }
  const DataType& row = args[0]->type;
  const std::string& name = args[1]->literal.string_value();
  if (row.id != TypeId::kRow) {
    return absl::InvalidArgumentError(absl::StrCat("field '", name, "' of a value of type ",
                                                   row.WithNullable(true).ToString(),
                                                   " (not a ROW)"));
  }
  for (const Field& f : row.fields()) {
    if (absl::EqualsIgnoreCase(f.name, name)) {
      DataType t = f.type.WithNullable(f.type.nullable || row.nullable);
      args[1] = MakeLiteral(Value::String(f.name), DataType::String().WithNullable(false));
      return NewCall(fn, std::move(args), t);
    }
  }
  std::string known;
  for (const Field& f : row.fields()) absl::StrAppend(&known, known.empty() ? "" : ", ", f.name);
  return absl::InvalidArgumentError(absl::StrCat("ROW ", row.WithNullable(true).ToString(),
                                                 " has no field '", name, "' (fields: ", known,
                                                 ")"));
}

}  // namespace

absl::StatusOr<ExprPtr> ResolveCollectionCall(const std::string& fn, std::vector<ExprPtr> args) {
  if (fn == "ARRAY" || fn == "MAP" || fn == "ROW") return ResolveConstructor(fn, std::move(args));
  if (fn == "ITEM") return ResolveItem(fn, std::move(args));
  if (fn == "FIELD") return ResolveField(fn, std::move(args));
  if (args.size() != 1) return WrongArgCount(fn, args.size());
  const DataType& c = args[0]->type;
  if (fn == "CARDINALITY") {
    if (c.id != TypeId::kArray && c.id != TypeId::kMap) return CannotApply(fn, args);
    const bool nullable = c.nullable;
    return NewCall(fn, std::move(args), DataType::Int().WithNullable(nullable));
  }
  // ELEMENT
  if (c.id != TypeId::kArray) return CannotApply(fn, args);
  DataType t = c.element_type().WithNullable(true);
  return NewCall(fn, std::move(args), t);
}

}  // namespace eddy
