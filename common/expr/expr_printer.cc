#include "common/expr/expr_printer.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/expr/zoned_calls.h"
#include "common/types/binary_text.h"
#include "common/types/collection_codec.h"
#include "common/types/value.h"

namespace eddy {
namespace {

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  out += '\'';
  return out;
}

// Calls whose first argument is a time unit, a literal the parser made from a keyword.
bool IsTimeUnitCall(const Expr& e) {
  return (e.function == "EXTRACT" || e.function == "TIMESTAMPADD" ||
          e.function == "TIMESTAMPDIFF") &&
         !e.args.empty() && e.args[0] != nullptr && e.args[0]->kind == ExprKind::kLiteral;
}

void Append(const Expr& e, const std::vector<std::string>& names, std::string* out) {
  switch (e.kind) {
    case ExprKind::kColumn:
      if (e.column >= 0 && static_cast<size_t>(e.column) < names.size()) {
        out->append(names[e.column]);
      } else {
        absl::StrAppend(out, "$", e.column);
      }
      return;
    case ExprKind::kLiteral:
      out->append(LiteralToString(e.literal, e.type));
      return;
    case ExprKind::kCall:
      break;
  }
  if ((e.function == "CAST" || e.function == "TRY_CAST") && !e.args.empty()) {
    absl::StrAppend(out, e.function, "(");
    Append(*e.args[0], names, out);
    absl::StrAppend(out, " AS ", e.type.WithNullable(true).ToString(), ")");
    return;
  }
  if (e.function == "FIELD" && e.args.size() == 2 && e.args[1]->literal.is_string()) {
    Append(*e.args[0], names, out);  // r.f, as Flink prints a field access
    absl::StrAppend(out, ".", e.args[1]->literal.string_value());
    return;
  }
  out->append(e.function == "NEGATE" ? "-" : e.function);
  out->push_back('(');
  for (size_t i = 0; i < e.args.size(); ++i) {
    if (IsZoneArgument(e, i)) continue;  // plans show the zone as Flink does: not at all
    if (i > 0) out->append(", ");
    if (e.args[i] == nullptr) {
      out->append("?");
    } else if (i == 0 && IsTimeUnitCall(e) && e.args[0]->literal.is_string()) {
      absl::StrAppend(out, "FLAG(", e.args[0]->literal.string_value(), ")");  // as Flink prints it
    } else {
      Append(*e.args[i], names, out);
    }
  }
  out->push_back(')');
}

}  // namespace

std::string LiteralToString(const Value& v, const DataType& type) {
  if (v.is_null()) return "NULL";
  switch (type.id) {
    case TypeId::kBoolean:
      return !v.is_bool() ? "?" : v.bool_value() ? "TRUE" : "FALSE";
    case TypeId::kString:
      return v.is_string() ? Quote(v.string_value()) : "?";
    case TypeId::kBinary: {  // as Flink's plans spell a binary literal: X'0A1B'
      if (!v.is_string()) return "?";
      return absl::AsciiStrToUpper(FormatBinary(v.string_value()));
    }
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow:
      return v.is_string() ? FormatCollection(v.string_value(), type) : "?";
    case TypeId::kFloat:
    case TypeId::kDouble:
      return v.is_double() ? FormatValue(v, type) : "?";
    // As Flink's plans print them: milliseconds, then the type.
    case TypeId::kInterval:
      return v.is_int() ? absl::StrCat(v.int_value(), ":INTERVAL SECOND") : "?";
    case TypeId::kIntervalYearMonth:  // months, then the type
      return v.is_int() ? absl::StrCat(v.int_value(), ":INTERVAL MONTH") : "?";
    default:
      return v.is_int() ? FormatValue(v, type) : "?";
  }
}

std::string ExprToString(const Expr& e, const std::vector<std::string>& input_names) {
  std::string out;
  Append(e, input_names, &out);
  return out;
}

}  // namespace eddy
