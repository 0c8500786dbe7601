// Type resolution of JSON_VALUE, JSON_QUERY, JSON_OBJECT, JSON_ARRAY and IS JSON. The parser
// passes their clauses as literal arguments in fixed positions:
//   JSON_VALUE(json, path, CAST(NULL AS returning), on_empty, empty_default, on_error,
//              error_default)  with on_* 'NULL' | 'ERROR' | 'DEFAULT'
//   JSON_QUERY(json, path, 'WITHOUT' | 'CONDITIONAL' | 'UNCONDITIONAL', on_empty, on_error)
//              with on_* 'NULL' | 'ERROR' | 'EMPTY ARRAY' | 'EMPTY OBJECT'
//   JSON_OBJECT('NULL' | 'ABSENT', k1, v1, ...), JSON_ARRAY('NULL' | 'ABSENT', v1, ...)
//   "IS JSON"(x, 'VALUE' | 'SCALAR' | 'ARRAY' | 'OBJECT')
// JSON_OBJECT / JSON_ARRAY record which values are JSON built by a nested JSON_OBJECT or
// JSON_ARRAY (inserted as JSON, not as a string) in their first literal: 'NULL:01' marks the
// second value; constant folding may later turn the nested call into a plain string.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/function_registry.h"
#include "common/expr/json_value.h"
#include "common/expr/resolve_internal.h"

namespace eddy::resolve_internal {
namespace {

using K = ArgKind;

absl::StatusOr<std::string> FlagAt(const std::string& fn, const std::vector<ExprPtr>& args,
                                   size_t i, std::initializer_list<std::string_view> allowed) {
  if (i >= args.size() || !IsLiteralArg(args, i) || !args[i]->literal.is_string()) {
    return absl::InvalidArgumentError(absl::StrCat("Malformed call to '", fn, "'"));
  }
  std::string flag = args[i]->literal.string_value();
  for (std::string_view a : allowed) {
    if (flag == a) return flag;
  }
  return absl::InvalidArgumentError(absl::StrCat("'", flag, "' is not supported in '", fn, "'"));
}

absl::Status CheckConstantPath(const std::vector<ExprPtr>& args) {
  if (IsLiteralArg(args, 1) && args[1]->literal.is_string()) {
    return json::Path::Compile(args[1]->literal.string_value()).status();
  }
  return absl::OkStatus();
}

// Flink's JSON_VALUE returns STRING, BOOLEAN, the integers, FLOAT, DOUBLE or DECIMAL.
bool SupportedReturning(const DataType& t) {
  return t.IsString() || t.IsNumeric() || t.id == TypeId::kBoolean;
}

bool BuildsJson(const ExprPtr& e) {
  return e->kind == ExprKind::kCall &&
         (e->function == "JSON_OBJECT" || e->function == "JSON_ARRAY");
}

Resolved ResolveJsonValue(const std::string& fn, std::vector<ExprPtr> args) {
  if (args.size() != 7) return WrongArgCount(fn, args.size());
  std::vector<ExprPtr> head(args.begin(), args.begin() + 2);
  RETURN_IF_ERROR(CheckSignature(fn, head, {K::kString, K::kString}, 2));
  args[0] = head[0];
  args[1] = head[1];
  RETURN_IF_ERROR(CheckConstantPath(args));
  const DataType returning = args[2]->type.WithNullable(true);
  if (!SupportedReturning(returning)) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", fn, "' cannot return ", returning.ToString()));
  }
  for (size_t slot : {3u, 5u}) {
    ASSIGN_OR_RETURN(std::string b, FlagAt(fn, args, slot, {"NULL", "ERROR", "DEFAULT"}));
    ExprPtr& def = args[slot + 1];
    if (IsNullType(def)) {
      def = MakeLiteral(Value::Null(), returning);
      continue;
    }
    RETURN_IF_ERROR(CheckCast(def->type, returning));
    def = CastIfNeeded(def, returning);
  }
  return NewCall(fn, std::move(args), returning);
}

Resolved ResolveJsonQuery(const std::string& fn, std::vector<ExprPtr> args) {
  if (args.size() != 5) return WrongArgCount(fn, args.size());
  std::vector<ExprPtr> head(args.begin(), args.begin() + 2);
  RETURN_IF_ERROR(CheckSignature(fn, head, {K::kString, K::kString}, 2));
  args[0] = head[0];
  args[1] = head[1];
  RETURN_IF_ERROR(CheckConstantPath(args));
  RETURN_IF_ERROR(FlagAt(fn, args, 2, {"WITHOUT", "CONDITIONAL", "UNCONDITIONAL"}).status());
  for (size_t slot : {3u, 4u}) {
    RETURN_IF_ERROR(
        FlagAt(fn, args, slot, {"NULL", "ERROR", "EMPTY ARRAY", "EMPTY OBJECT"}).status());
  }
  return NewCall(fn, std::move(args), DataType::String().WithNullable(true));
}

Resolved ResolveJsonConstructor(const std::string& fn, std::vector<ExprPtr> args) {
  const bool object = fn == "JSON_OBJECT";
  if (args.empty() || !IsLiteralArg(args, 0) || !args[0]->literal.is_string()) {
    return absl::InvalidArgumentError(absl::StrCat("Malformed call to '", fn, "'"));
  }
  std::string flag = args[0]->literal.string_value();
  const size_t colon = flag.find(':');
  const std::string on_null = flag.substr(0, colon);
  if (on_null != "NULL" && on_null != "ABSENT") {
    return absl::InvalidArgumentError(absl::StrCat("'", on_null, " ON NULL' is not supported"));
  }
  if (object && args.size() % 2 != 1) return WrongArgCount(fn, args.size() - 1);
  std::string mask;
  for (size_t i = 1; i < args.size(); ++i) {
    const bool key = object && i % 2 == 1;
    if (key) {
      if (IsNullType(args[i]) || !args[i]->type.IsString()) {
        return absl::InvalidArgumentError(
            absl::StrCat("Cannot apply '", fn, "': key ", i / 2 + 1, " must be <STRING>, not ",
                         IsNullType(args[i]) ? "<NULL>" : TypeText(args[i]->type)));
      }
      continue;
    }
    if (IsNullType(args[i])) args[i] = MakeCast(args[i], DataType::String());
    if (args[i]->type.id == TypeId::kInterval || args[i]->type.id == TypeId::kIntervalYearMonth) {
      return CannotApply(fn, args);
    }
    mask.push_back(BuildsJson(args[i]) ? '1' : '0');
  }
  if (colon != std::string::npos) mask = flag.substr(colon + 1);  // already resolved once
  args[0] = MakeLiteral(Value::String(absl::StrCat(on_null, ":", mask)),
                        DataType::String().WithNullable(false));
  return NewCall(fn, std::move(args), DataType::String().WithNullable(false));
}

}  // namespace

Resolved ResolveJson(const std::string& fn, std::vector<ExprPtr> args) {
  if (fn == "JSON_VALUE") return ResolveJsonValue(fn, std::move(args));
  if (fn == "JSON_QUERY") return ResolveJsonQuery(fn, std::move(args));
  if (fn == "JSON_OBJECT" || fn == "JSON_ARRAY") return ResolveJsonConstructor(fn, std::move(args));
  // IS JSON
  if (args.size() != 2) return WrongArgCount(fn, args.size());
  RETURN_IF_ERROR(FlagAt(fn, args, 1, {"VALUE", "SCALAR", "ARRAY", "OBJECT"}).status());
  std::vector<ExprPtr> head(args.begin(), args.begin() + 1);
  RETURN_IF_ERROR(CheckSignature(fn, head, {K::kString}, 1));
  args[0] = head[0];
  return NewCall(fn, std::move(args), DataType::Boolean().WithNullable(false));
}

}  // namespace eddy::resolve_internal
