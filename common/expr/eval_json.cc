// Kernels of JSON_VALUE, JSON_QUERY, JSON_OBJECT, JSON_ARRAY and IS JSON (the argument layout is
// described in resolve_json_functions.cc). JSON_VALUE extracts every row's text first, then
// converts the whole column to the RETURNING type with TRY_CAST; rows that are empty or in error
// then take their ON EMPTY / ON ERROR behaviour.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/base/json_string.h"
#include "common/base/status_macros.h"
#include "common/expr/eval_internal.h"
#include "common/expr/json_value.h"

namespace eddy::eval_internal {
namespace {

bool IsNull(const std::vector<uint8_t>& validity, size_t i) {
  return !validity.empty() && !(validity[i >> 3] & (1u << (i & 7)));
}

// The path of each row: the call's constant one compiled once, else the row's.
class Paths {
 public:
  Paths(const Expr& call, const Column& column) : call_(call), column_(column) {}

  absl::StatusOr<const json::Path*> Get(size_t i) {
    const Expr& p = *call_.args[1];
    if (p.kind == ExprKind::kLiteral && p.literal.is_string()) {
      if (constant_ == nullptr) {
        ASSIGN_OR_RETURN(constant_,
                         call_.kernel_state.GetOrCreate<const json::Path>(
                             [&]() -> absl::StatusOr<std::shared_ptr<const json::Path>> {
                               ASSIGN_OR_RETURN(json::Path path,
                                                json::Path::Compile(p.literal.string_value()));
                               return std::make_shared<const json::Path>(std::move(path));
                             }));
      }
      return constant_.get();
    }
    std::string_view text = column_.GetString(i);
    if (current_ == nullptr || text != text_) {
      ASSIGN_OR_RETURN(json::Path path, json::Path::Compile(text));
      current_ = std::make_shared<json::Path>(std::move(path));
      text_.assign(text);
    }
    return current_.get();
  }

 private:
  const Expr& call_;
  const Column& column_;
  std::shared_ptr<const json::Path> constant_;
  std::shared_ptr<json::Path> current_;
  std::string text_;
};

enum class Outcome : uint8_t { kValue, kEmpty, kError };

const std::string& FlagOf(const Expr& call, size_t i) {
  return call.args[i]->literal.string_value();
}

// What a path selects in one row's document, as Flink's JSON functions see it: in strict mode a
// missing item, a JSON null or input that is not JSON is an error, in lax mode nothing (empty). A
// path with a wildcard always selects a list.
struct Selection {
  Outcome outcome = Outcome::kValue;
  const json::Value* value = nullptr;  // a definite path's value
  bool is_list = false;                // a wildcard path: `list`
  std::vector<const json::Value*> list;
  std::string why;  // kError
};

Selection Select(const json::Path& path, std::string_view path_text, std::string_view input,
                 json::Value* doc) {
  Selection s;
  if (!json::Parse(input, doc)) {
    s.outcome = path.strict() ? Outcome::kError : Outcome::kEmpty;
    s.why = "the input is not JSON";
    return s;
  }
  json::Path::Result r = path.Evaluate(*doc);
  if (r.error) {
    s.outcome = Outcome::kError;
    s.why = absl::StrCat("No results for path: ", std::string(path_text));
  } else if (!r.definite) {
    s.is_list = true;
    s.list = std::move(r.values);
  } else if (r.values.empty()) {
    s.outcome = Outcome::kEmpty;
  } else if (r.values[0]->kind == json::Value::Kind::kNull) {
    s.outcome = path.strict() ? Outcome::kError : Outcome::kEmpty;
    s.why = "Strict jsonpath mode requires a non empty returned value, but is null";
  } else {
    s.value = r.values[0];
  }
  return s;
}

// A selected value as text: a string unquoted, a number as Flink prints it, else JSON.
void AppendText(const json::Value& v, std::string* out) {
  if (v.kind == json::Value::Kind::kString) {
    out->append(v.text);
  } else if (v.kind == json::Value::Kind::kNumber) {
    out->append(json::NumberText(v.text));
  } else {
    json::Write(v, out);
  }
}

void WriteList(const std::vector<const json::Value*>& list, std::string* out) {
  out->push_back('[');
  for (size_t k = 0; k < list.size(); ++k) {
    if (k > 0) out->push_back(',');
    json::Write(*list[k], out);
  }
  out->push_back(']');
}

// For an integer RETURNING type, a number with a fraction or exponent is cut toward zero first,
// as Flink converts through BigDecimal.
void TruncateToInteger(std::string* text) {
  if (text->find_first_of(".eE") == std::string::npos) return;
  char* end = nullptr;
  const double d = std::strtod(text->c_str(), &end);
  if (end != text->c_str() + text->size() || !std::isfinite(d) || std::fabs(d) >= 9.2e18) return;
  *text = absl::StrCat(static_cast<int64_t>(d));
}

absl::StatusOr<Column> JsonValue(const Expr& call, const ArgList& args, size_t n) {
  Paths paths(call, *args[1]);
  auto validity = CombineValidity({args[0], args[1]}, n);
  StringBuilder text(DataType::String(), n);
  std::vector<Outcome> outcome(n, Outcome::kValue);
  std::vector<std::string> why(n);
  const bool to_integer = call.type.IsInteger();
  json::Value doc;
  std::string scratch;
  for (size_t i = 0; i < n; ++i) {
    if (IsNull(validity, i)) {
      text.AppendNull();
      outcome[i] = Outcome::kEmpty;  // NULL input: NULL, whatever the behaviours say
      continue;
    }
    ASSIGN_OR_RETURN(const json::Path* path, paths.Get(i));
    Selection sel = Select(*path, args[1]->GetString(i), args[0]->GetString(i), &doc);
    if (sel.outcome == Outcome::kValue && (sel.is_list || !sel.value->IsScalar())) {
      if (path->strict()) {
        sel.outcome = Outcome::kError;
        std::string shown;
        if (sel.is_list) {
          WriteList(sel.list, &shown);
        } else {
          json::Write(*sel.value, &shown);
        }
        sel.why = absl::StrCat(
            "Strict jsonpath mode requires scalar value, and the actual value is: '", shown, "'");
      } else {
        sel.outcome = Outcome::kEmpty;
      }
    }
    outcome[i] = sel.outcome;
    if (sel.outcome != Outcome::kValue) {
      why[i] = std::move(sel.why);
      text.AppendNull();
      continue;
    }
    scratch.clear();
    AppendText(*sel.value, &scratch);
    if (to_integer) TruncateToInteger(&scratch);
    text.Append(scratch);
  }
  Column extracted = text.Finish();
  Column converted = extracted;
  if (call.type.id != TypeId::kString) {
    ASSIGN_OR_RETURN(converted, EvalCast(extracted, call.type, /*try_cast=*/true));
    for (size_t i = 0; i < n; ++i) {
      if (outcome[i] == Outcome::kValue && converted.IsNull(i)) {
        outcome[i] = Outcome::kError;
        why[i] = absl::StrCat("Cannot cast '", std::string(extracted.GetString(i)), "' to ",
                              call.type.WithNullable(true).ToString());
      }
    }
  }
  Column out(call.type);
  out.Reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (outcome[i] == Outcome::kValue) {
      out.AppendFrom(converted, i);
      continue;
    }
    if (IsNull(validity, i)) {
      out.AppendNull();
      continue;
    }
    const bool empty = outcome[i] == Outcome::kEmpty;
    const std::string& behaviour = FlagOf(call, empty ? 3 : 5);
    if (behaviour == "ERROR") {
      return absl::InvalidArgumentError(empty ? "Empty result of JSON_VALUE function is not allowed"
                                              : why[i]);
    }
    if (behaviour == "DEFAULT") {
      const Column& def = *args[empty ? 4 : 6];
      if (def.type().id != call.type.id) return InternalError(call, "default of a different type");
      out.AppendFrom(def, i);
    } else {
      out.AppendNull();
    }
  }
  return out;
}

absl::StatusOr<Column> JsonQuery(const Expr& call, const ArgList& args, size_t n) {
  Paths paths(call, *args[1]);
  auto validity = CombineValidity({args[0], args[1]}, n);
  const std::string& wrapper = FlagOf(call, 2);
  StringBuilder out(call.type, n);
  json::Value doc;
  for (size_t i = 0; i < n; ++i) {
    if (IsNull(validity, i)) {
      out.AppendNull();
      continue;
    }
    ASSIGN_OR_RETURN(const json::Path* path, paths.Get(i));
    Selection sel = Select(*path, args[1]->GetString(i), args[0]->GetString(i), &doc);
    std::string& h = out.heap();
    if (sel.outcome == Outcome::kValue) {
      // An array (or a wildcard's list) is a collection; WITH CONDITIONAL WRAPPER wraps anything
      // else, WITH UNCONDITIONAL WRAPPER everything.
      const bool collection = sel.is_list || sel.value->kind == json::Value::Kind::kArray;
      const bool wrap = wrapper == "UNCONDITIONAL" || (wrapper == "CONDITIONAL" && !collection);
      if (!wrap && !sel.is_list && sel.value->IsScalar()) {
        if (path->strict()) {
          sel.outcome = Outcome::kError;
          std::string shown;
          AppendText(*sel.value, &shown);
          sel.why = absl::StrCat(
              "Strict jsonpath mode requires array or object value, and the actual value is: '",
              shown, "'");
        } else {
          sel.outcome = Outcome::kEmpty;
        }
      } else {
        if (wrap) h.push_back('[');
        if (sel.is_list) {
          WriteList(sel.list, &h);
        } else {
          json::Write(*sel.value, &h);
        }
        if (wrap) h.push_back(']');
        out.Commit();
        continue;
      }
    }
    const bool empty = sel.outcome == Outcome::kEmpty;
    const std::string& behaviour = FlagOf(call, empty ? 3 : 4);
    if (behaviour == "ERROR") {
      return absl::InvalidArgumentError(empty ? "Empty result of JSON_QUERY function is not allowed"
                                              : sel.why);
    }
    if (behaviour == "EMPTY ARRAY") {
      out.Append("[]");
    } else if (behaviour == "EMPTY OBJECT") {
      out.Append("{}");
    } else {
      out.AppendNull();
    }
  }
  return out.Finish();
}

// Each value column as JSON text fragments: strings quoted, numbers and booleans as they print,
// times as ISO-8601 strings, nested JSON as it is.
absl::StatusOr<Column> JsonFragments(const Column& c, bool raw) {
  const TypeId id = c.type().id;
  if (id == TypeId::kString || id == TypeId::kDate || id == TypeId::kTime ||
      id == TypeId::kTimestamp || id == TypeId::kTimestampLtz) {
    Column text = c;
    if (id != TypeId::kString) {
      ASSIGN_OR_RETURN(text, EvalCast(c, DataType::String(), false));
    }
    StringBuilder out(DataType::String(), c.size());
    for (size_t i = 0; i < c.size(); ++i) {
      if (text.IsNull(i)) {
        out.AppendNull();
        continue;
      }
      std::string_view s = text.GetString(i);
      if (raw) {
        out.Append(s);
        continue;
      }
      if (id == TypeId::kTimestamp || id == TypeId::kTimestampLtz) {
        // ISO_LOCAL_DATE_TIME: 'T' between date and time, the fraction only when not zero.
        std::string iso(s);
        if (iso.size() > 10) iso[10] = 'T';
        size_t dot = iso.find('.');
        if (dot != std::string::npos) {
          size_t end = iso.find_last_not_of('0');
          iso.resize(end == dot ? dot : end + 1);
        }
        AppendJsonString(iso, &out.heap());
      } else {
        AppendJsonString(s, &out.heap());
      }
      out.Commit();
    }
    return out.Finish();
  }
  if (id == TypeId::kBoolean) {
    StringBuilder out(DataType::String(), c.size());
    for (size_t i = 0; i < c.size(); ++i) {
      if (c.IsNull(i)) {
        out.AppendNull();
      } else {
        out.Append(c.data<uint8_t>()[i] ? "true" : "false");
      }
    }
    return out.Finish();
  }
  return EvalCast(c, DataType::String(), false);  // numbers print as JSON writes them
}

absl::StatusOr<Column> JsonConstructor(const Expr& call, const ArgList& args, size_t n) {
  const bool object = call.function == "JSON_OBJECT";
  const std::string& flag = FlagOf(call, 0);
  const bool absent_on_null = flag.rfind("ABSENT", 0) == 0;
  const std::string mask = flag.substr(flag.find(':') + 1);
  std::vector<Column> values;
  std::vector<const Column*> keys;
  size_t v = 0;
  for (size_t i = 1; i < args.size(); ++i) {
    if (object && i % 2 == 1) {
      keys.push_back(args[i]);
      continue;
    }
    const bool raw = v < mask.size() && mask[v] == '1';
    ++v;
    ASSIGN_OR_RETURN(Column fragments, JsonFragments(*args[i], raw));
    values.push_back(std::move(fragments));
  }
  StringBuilder out(call.type, n);
  std::vector<size_t> order(values.size());
  for (size_t i = 0; i < n; ++i) {
    // Objects list their keys sorted (Flink sorts them for a deterministic text); of a repeated
    // key the last value stays.
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    if (object) {
      for (const Column* key : keys) {
        if (key->IsNull(i)) return absl::InvalidArgumentError("JSON_OBJECT key is NULL");
      }
      std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return keys[a]->GetString(i) < keys[b]->GetString(i);
      });
    }
    std::string& h = out.heap();
    h.push_back(object ? '{' : '[');
    bool first = true;
    for (size_t o = 0; o < order.size(); ++o) {
      const size_t k = order[o];
      if (object && o + 1 < order.size() &&
          keys[order[o + 1]]->GetString(i) == keys[k]->GetString(i)) {
        continue;
      }
      const bool null = values[k].IsNull(i);
      if (null && absent_on_null) continue;
      if (!first) h.push_back(',');
      first = false;
      if (object) {
        AppendJsonString(keys[k]->GetString(i), &h);
        h.push_back(':');
      }
      if (null) {
        h.append("null");
      } else {
        h.append(values[k].GetString(i));
      }
    }
    h.push_back(object ? '}' : ']');
    out.Commit();
  }
  return out.Finish();
}

absl::StatusOr<Column> IsJson(const Expr& call, const ArgList& args, size_t n) {
  const std::string& kind = FlagOf(call, 1);
  FixedBuilder<uint8_t> out(call.type, n);
  uint8_t* r = out.values();
  json::Value doc;
  for (size_t i = 0; i < n; ++i) {
    if (args[0]->IsNull(i) || !json::Parse(args[0]->GetString(i), &doc)) continue;
    r[i] = kind == "VALUE"    ? 1
           : kind == "SCALAR" ? doc.IsScalar()
           : kind == "ARRAY"  ? doc.kind == json::Value::Kind::kArray
                              : doc.kind == json::Value::Kind::kObject;
  }
  return out.Finish();
}

}  // namespace

absl::StatusOr<Column> EvalJson(const Expr& call, const ArgList& args, size_t n) {
  const std::string& f = call.function;
  if (args.size() != call.args.size()) return InternalError(call, "arguments");
  if (f == "JSON_VALUE") return JsonValue(call, args, n);
  if (f == "JSON_QUERY") return JsonQuery(call, args, n);
  if (f == "JSON_OBJECT" || f == "JSON_ARRAY") return JsonConstructor(call, args, n);
  if (f == "IS JSON") return IsJson(call, args, n);
  return InternalError(call, "unknown JSON function");
}

}  // namespace eddy::eval_internal
