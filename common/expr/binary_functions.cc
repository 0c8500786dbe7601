// The binary-string functions: ENCODE(string, 'UTF-8') (a CAST to BYTES) and DECODE(bytes,
// 'UTF-8'), which decodes as Java's String(bytes, UTF_8) does, each malformed sequence becoming
// U+FFFD (a CAST to STRING is strict instead); the charset must be a literal and only UTF-8 is
// supported. TO_BASE64(string or bytes) and FROM_BASE64(string), both STRING, as Flink's.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/eval_internal.h"
#include "common/expr/function_registry.h"
#include "common/expr/resolve_internal.h"
#include "common/types/binary_text.h"
#include "common/types/utf8_decode.h"

namespace eddy {
namespace resolve_internal {
namespace {

// The charset argument of ENCODE / DECODE: a literal naming UTF-8.
absl::Status CheckCharset(const std::string& fn, const std::vector<ExprPtr>& args) {
  if (!IsLiteralArg(args, 1) || !args[1]->type.IsString() || !args[1]->literal.is_string()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the charset of '", fn, "' must be a string literal such as 'UTF-8'"));
  }
  const std::string& charset = args[1]->literal.string_value();
  if (!absl::EqualsIgnoreCase(charset, "UTF-8") && !absl::EqualsIgnoreCase(charset, "UTF8")) {
    return absl::InvalidArgumentError(
        absl::StrCat("charset '", charset, "' of '", fn, "' is not supported (only 'UTF-8' is)"));
  }
  return absl::OkStatus();
}

// Argument 0 as `want` (STRING or BYTES); an untyped NULL becomes one.
bool TakeFirst(std::vector<ExprPtr>& args, bool (DataType::*want)() const, const DataType& as) {
  if (IsNullType(args[0])) args[0] = MakeCast(args[0], as);
  return (args[0]->type.*want)();
}

}  // namespace

Resolved ResolveBinaryFunction(const std::string& fn, std::vector<ExprPtr> args) {
  if (fn == "ENCODE" || fn == "DECODE") {
    if (args.size() != 2) return WrongArgCount(fn, args.size());
    const bool encode = fn == "ENCODE";
    if (!TakeFirst(args, encode ? &DataType::IsString : &DataType::IsBinary,
                   encode ? DataType::String() : DataType::Bytes())) {
      return CannotApply(fn, args);
    }
    RETURN_IF_ERROR(CheckCharset(fn, args));
    if (encode) return MakeCast(args[0], DataType::Bytes());
    const bool nullable = args[0]->type.nullable;
    return NewCall(fn, std::move(args), DataType::String().WithNullable(nullable));
  }
  if (args.size() != 1) return WrongArgCount(fn, args.size());
  if (IsNullType(args[0])) args[0] = MakeCast(args[0], DataType::String());
  const DataType& t = args[0]->type;
  if (!(t.IsString() || (fn == "TO_BASE64" && t.IsBinary()))) return CannotApply(fn, args);
  const bool nullable = args[0]->type.nullable;
  return NewCall(fn, std::move(args), DataType::String().WithNullable(nullable));
}

}  // namespace resolve_internal

namespace eval_internal {

absl::StatusOr<Column> EvalBinaryFunction(const Expr& call, const ArgList& args, size_t n) {
  const Column& in = *args[0];
  const bool to_base64 = call.function == "TO_BASE64";
  const bool decode = call.function == "DECODE";
  StringBuilder out(call.type, n);
  std::string decoded;
  for (size_t i = 0; i < n; ++i) {
    if (in.IsNull(i)) {
      out.AppendNull();
      continue;
    }
    const std::string_view v = in.GetString(i);
    if (decode) {
      if (IsValidUtf8(v)) {
        out.Append(v);
      } else {
        decoded.clear();
        AppendUtf8WithReplacement(v, &decoded);
        out.Append(decoded);
      }
    } else if (to_base64) {
      out.Append(Base64Encode(v));
    } else if (Base64Decode(v, &decoded)) {
      out.Append(decoded);
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("FROM_BASE64: '", std::string(v.substr(0, 64)), "' is not base64 text"));
    }
  }
  return out.Finish();
}

}  // namespace eval_internal
}  // namespace eddy
