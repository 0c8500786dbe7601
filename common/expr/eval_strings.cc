// String kernels: || / CONCAT / CONCAT_WS, UPPER, LOWER, CHAR_LENGTH, TRIM (spaces or given
// characters), SUBSTRING. Lengths and
// positions count UTF-8 code points; UPPER/LOWER change ASCII letters only (other bytes pass
// through unchanged), which covers identifiers and most test data without an ICU dependency.
#include <algorithm>
#include <string_view>

#include "absl/strings/ascii.h"
#include "common/expr/eval_internal.h"
#include "common/expr/utf8.h"

namespace eddy::eval_internal {
namespace {

using utf8::ByteOffset;
using utf8::CodePoints;

absl::StatusOr<Column> Concat(const Expr& call, const ArgList& args, size_t n) {
  StringBuilder out(call.type, n);
  auto validity = CombineValidity(args, n);
  auto is_null = [&](size_t i) {
    return !validity.empty() && !(validity[i >> 3] & (1u << (i & 7)));
  };
  size_t bytes = 0;
  for (const Column* a : args) bytes += a->raw_heap().size();
  out.heap().reserve(bytes);
  for (size_t i = 0; i < n; ++i) {
    if (is_null(i)) {
      out.AppendNull();
      continue;
    }
    std::string& h = out.heap();
    for (const Column* a : args) {
      std::string_view s = a->GetString(i);
      h.append(s.data(), s.size());
    }
    out.Commit();
  }
  return out.Finish();
}

absl::StatusOr<Column> ConcatWs(const Expr& call, const ArgList& args, size_t n) {
  StringBuilder out(call.type, n);
  const Column& sep = *args[0];
  for (size_t i = 0; i < n; ++i) {
    if (sep.IsNull(i)) {
      out.AppendNull();
      continue;
    }
    std::string_view sv = sep.GetString(i);
    std::string& h = out.heap();
    bool first = true;
    for (size_t k = 1; k < args.size(); ++k) {
      if (args[k]->IsNull(i)) continue;  // Flink's CONCAT_WS skips NULL arguments
      if (!first) h.append(sv.data(), sv.size());
      std::string_view s = args[k]->GetString(i);
      h.append(s.data(), s.size());
      first = false;
    }
    out.Commit();
  }
  return out.Finish();
}

template <typename F>
Column MapString(const Expr& call, const Column& c, size_t n, F&& f) {
  StringBuilder out(call.type, n);
  out.heap().reserve(c.raw_heap().size());
  for (size_t i = 0; i < n; ++i) {
    if (c.IsNull(i)) {
      out.AppendNull();
    } else {
      f(c.GetString(i), out.heap());
      out.Commit();
    }
  }
  return out.Finish();
}

// SUBSTRING(s, pos[, len]) as Flink: pos is 1-based, a negative pos counts from the end, pos 0 acts
// as 1; a negative len gives ''.
absl::StatusOr<Column> Substring(const Expr& call, const ArgList& args, size_t n) {
  StringBuilder out(call.type, n);
  auto validity = CombineValidity(args, n);
  const Column& s = *args[0];
  const int32_t* pos = args[1]->data<int32_t>();
  const int32_t* len = args.size() == 3 ? args[2]->data<int32_t>() : nullptr;
  for (size_t i = 0; i < n; ++i) {
    if (!validity.empty() && !(validity[i >> 3] & (1u << (i & 7)))) {
      out.AppendNull();
      continue;
    }
    std::string_view str = s.GetString(i);
    int64_t chars = CodePoints(str);
    int64_t p = pos[i];
    int64_t start = p > 0 ? p - 1 : (p < 0 ? chars + p : 0);
    int64_t end = len != nullptr ? start + len[i] : chars;
    if (len != nullptr && len[i] < 0) end = start;
    start = std::max<int64_t>(start, 0);
    end = std::min(end, chars);
    if (start >= end) {
      out.Append("");
      continue;
    }
    size_t b = ByteOffset(str, start);
    size_t e = b + ByteOffset(str.substr(b), end - start);
    out.Append(str.substr(b, e - b));
  }
  return out.Finish();
}

// TRIM(s, chars): removes the code points that occur in `chars` from the chosen ends.
absl::StatusOr<Column> TrimChars(const Expr& call, const ArgList& args, size_t n, bool left,
                                 bool right) {
  StringBuilder out(call.type, n);
  auto validity = CombineValidity(args, n);
  for (size_t i = 0; i < n; ++i) {
    if (!validity.empty() && !(validity[i >> 3] & (1u << (i & 7)))) {
      out.AppendNull();
      continue;
    }
    std::string_view s = args[0]->GetString(i), chars = args[1]->GetString(i);
    auto in_set = [&](size_t at, size_t len) {
      return chars.find(s.substr(at, len)) != std::string_view::npos;
    };
    size_t b = 0, e = s.size();
    if (left) {
      while (b < e && in_set(b, utf8::CharBytes(s, b))) b += utf8::CharBytes(s, b);
    }
    if (right) {
      while (e > b) {
        size_t start = e - 1;
        while (start > b && utf8::IsContinuation(static_cast<unsigned char>(s[start]))) --start;
        if (!in_set(start, e - start)) break;
        e = start;
      }
    }
    out.Append(s.substr(b, e - b));
  }
  return out.Finish();
}

}  // namespace

absl::StatusOr<Column> EvalString(const Expr& call, const ArgList& args, size_t n) {
  const std::string& f = call.function;
  for (const Column* a : args) {
    if (a->type().id == TypeId::kString) continue;
    if (f == "SUBSTRING" && a != args[0] && a->type().id == TypeId::kInt) continue;
    return InternalError(call, "unexpected argument type");
  }
  if (args.empty()) return InternalError(call, "no arguments");
  if (f == "||" || f == "CONCAT") return Concat(call, args, n);
  if (f == "CONCAT_WS") return ConcatWs(call, args, n);
  if (f == "SUBSTRING") {
    if (args.size() < 2 || args[0]->type().id != TypeId::kString) {
      return InternalError(call, "expected (STRING, INT[, INT])");
    }
    return Substring(call, args, n);
  }
  const Column& c = *args[0];
  if (f == "CHAR_LENGTH") {
    FixedBuilder<int32_t> out(call.type, n);
    out.SetValidity(CombineValidity(args, n));
    int32_t* r = out.values();
    for (size_t i = 0; i < n; ++i) r[i] = static_cast<int32_t>(CodePoints(c.GetString(i)));
    return out.Finish();
  }
  if (f == "UPPER") {
    return MapString(call, c, n, [](std::string_view s, std::string& h) {
      for (char ch : s) h.push_back(absl::ascii_toupper(static_cast<unsigned char>(ch)));
    });
  }
  if (f == "LOWER") {
    return MapString(call, c, n, [](std::string_view s, std::string& h) {
      for (char ch : s) h.push_back(absl::ascii_tolower(static_cast<unsigned char>(ch)));
    });
  }
  if (f == "TRIM" || f == "LTRIM" || f == "RTRIM") {
    const bool left = f != "RTRIM", right = f != "LTRIM";
    if (args.size() == 2) return TrimChars(call, args, n, left, right);
    return MapString(call, c, n, [&](std::string_view s, std::string& h) {
      size_t b = 0, e = s.size();
      if (left) {
        while (b < e && s[b] == ' ') ++b;
      }
      if (right) {
        while (e > b && s[e - 1] == ' ') --e;
      }
      h.append(s.data() + b, e - b);
    });
  }
  return InternalError(call, "unknown string function");
}

}  // namespace eddy::eval_internal
