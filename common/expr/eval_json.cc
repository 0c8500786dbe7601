// Kernels of JSON_VALUE, JSON_QUERY, JSON_OBJECT, JSON_ARRAY and IS JSON (the argument layout is
// described in resolve_json_functions.cc). JSON_VALUE extracts every row's text first, then
// converts the whole column to the RETURNING type with TRY_CAST; rows that are empty or in error
// then take their ON EMPTY / ON ERROR behaviour.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
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

absl::StatusOr<Column> JsonValue(const Expr& call, const ArgList& args, size_t n) {
  Paths paths(call, *args[1]);
  auto validity = CombineValidity({args[0], args[1]}, n);
  StringBuilder text(DataType::String(), n);
  std::vector<Outcome> outcome(n, Outcome::kValue);
  std::vector<std::string> why(n);
  json::Value doc;
  for (size_t i = 0; i < n; ++i) {
    if (IsNull(validity, i)) {
      text.AppendNull();
      outcome[i] = Outcome::kEmpty;  // NULL input: NULL, whatever the behaviours say
      continue;
    }
    ASSIGN_OR_RETURN(const json::Path* path, paths.Get(i));
    Outcome o = Outcome::kValue;
    if (!json::Parse(args[0]->GetString(i), &doc)) {
      o = Outcome::kError;
      why[i] = "the input is not JSON";
    } else {
      json::Path::Result r = path->Evaluate(doc);
      if (r.error) {
        o = Outcome::kError;
        why[i] = "the strict path does not match the input";
      } else if (r.values.empty() ||
                 (r.definite && r.values[0]->kind == json::Value::Kind::kNull)) {
        o = Outcome::kEmpty;
      } else if (!r.definite || !r.values[0]->IsScalar()) {
        o = Outcome::kError;
        why[i] = "the value at the path is not a scalar";
      } else {
        const json::Value& v = *r.values[0];
        std::string& h = text.heap();
        if (v.kind == json::Value::Kind::kBool) {
          h.append(v.boolean ? "true" : "false");
        } else if (v.kind == json::Value::Kind::kNumber) {
          h.append(json::NumberText(v.text));
        } else {
          h.append(v.text);
        }
        text.Commit();
      }
    }
    outcome[i] = o;
    if (o != Outcome::kValue) text.AppendNull();
  }
  Column extracted = text.Finish();
  Column converted = extracted;
  if (call.type.id != TypeId::kString) {
    ASSIGN_OR_RETURN(converted, EvalCast(extracted, call.type, /*try_cast=*/true));
    for (size_t i = 0; i < n; ++i) {
      if (outcome[i] == Outcome::kValue && converted.IsNull(i)) {
        outcome[i] = Outcome::kError;
        why[i] = absl::StrCat("'", std::string(extracted.GetString(i)), "' is not a ",
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
      return absl::InvalidArgumentError(
          empty ? absl::StrCat("Empty result of JSON_VALUE function is not allowed (path '",
                               std::string(args[1]->GetString(i)), "')")
                : absl::StrCat("Error in JSON_VALUE at path '", std::string(args[1]->GetString(i)),
                               "': ", why[i]));
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
    std::string& h = out.heap();
    Outcome o = Outcome::kValue;
    std::string why;
    if (!json::Parse(args[0]->GetString(i), &doc)) {
      o = Outcome::kError;
      why = "the input is not JSON";
    } else {
      json::Path::Result r = path->Evaluate(doc);
      if (r.error) {
        o = Outcome::kError;
        why = "the strict path does not match the input";
      } else if (r.values.empty() ||
                 (r.definite && r.values[0]->kind == json::Value::Kind::kNull)) {
        o = Outcome::kEmpty;
      } else if (!r.definite) {
        // Several values (a wildcard) form an array.
        if (wrapper == "UNCONDITIONAL") h.push_back('[');
        h.push_back('[');
        for (size_t k = 0; k < r.values.size(); ++k) {
          if (k > 0) h.push_back(',');
          json::Write(*r.values[k], &h);
        }
        h.push_back(']');
        if (wrapper == "UNCONDITIONAL") h.push_back(']');
      } else {
        const json::Value& v = *r.values[0];
        if (v.IsScalar() && wrapper == "WITHOUT") {
          o = Outcome::kError;
          why = "the value at the path is a scalar; use WITH WRAPPER";
        } else {
          const bool wrap = wrapper == "UNCONDITIONAL" || v.IsScalar();
          if (wrap) h.push_back('[');
          json::Write(v, &h);
          if (wrap) h.push_back(']');
        }
      }
    }
    if (o == Outcome::kValue) {
      out.Commit();
      continue;
    }
    const std::string& behaviour = FlagOf(call, o == Outcome::kEmpty ? 3 : 4);
    if (behaviour == "ERROR") {
      return absl::InvalidArgumentError(
          o == Outcome::kEmpty
              ? absl::StrCat("Empty result of JSON_QUERY function is not allowed (path '",
                             std::string(args[1]->GetString(i)), "')")
              : absl::StrCat("Error in JSON_QUERY at path '", std::string(args[1]->GetString(i)),
                             "': ", why));
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
  if (id == TypeId::kString || id == TypeId::kDate || id == TypeId::kTimestamp) {
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
      if (id == TypeId::kTimestamp) {
        // ISO_LOCAL_DATE_TIME: 'T' between date and time, the fraction only when not zero.
        std::string iso(s);
        if (iso.size() > 10) iso[10] = 'T';
        size_t dot = iso.find('.');
        if (dot != std::string::npos) {
          size_t end = iso.find_last_not_of('0');
          iso.resize(end == dot ? dot : end + 1);
        }
        json::WriteString(iso, &out.heap());
      } else {
        json::WriteString(s, &out.heap());
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
  for (size_t i = 0; i < n; ++i) {
    std::string& h = out.heap();
    h.push_back(object ? '{' : '[');
    bool first = true;
    for (size_t k = 0; k < values.size(); ++k) {
      const bool null = values[k].IsNull(i);
      if (null && absent_on_null) continue;
      if (!first) h.push_back(',');
      first = false;
      if (object) {
        if (keys[k]->IsNull(i)) return absl::InvalidArgumentError("JSON_OBJECT key is NULL");
        json::WriteString(keys[k]->GetString(i), &h);
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
