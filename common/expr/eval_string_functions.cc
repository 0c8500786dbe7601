// Kernels of the string functions REPLACE, SPLIT_INDEX, LPAD, RPAD, INITCAP, REVERSE, REPEAT,
// LEFT, RIGHT, POSITION (LOCATE) and OVERLAY, with Flink's edge cases (documented in
// docs/sql-reference.md). Positions and lengths count code points; INITCAP changes ASCII letters
// only, as UPPER and LOWER do.
#include <algorithm>
#include <string_view>

#include "common/expr/eval_internal.h"
#include "common/expr/utf8.h"

namespace eddy::eval_internal {
namespace {

using utf8::ByteOffset;
using utf8::CodePoints;

bool Null(const std::vector<uint8_t>& validity, size_t i) {
  return !validity.empty() && !(validity[i >> 3] & (1u << (i & 7)));
}

// Runs f(i, heap) -> bool (false: NULL) on each row whose arguments are all non-NULL.
template <typename F>
Column MapRows(const Expr& call, const ArgList& args, size_t n, F&& f) {
  StringBuilder out(call.type, n);
  auto validity = CombineValidity(args, n);
  for (size_t i = 0; i < n; ++i) {
    if (Null(validity, i)) {
      out.AppendNull();
      continue;
    }
    std::string& h = out.heap();
    const size_t mark = h.size();
    if (f(i, h)) {
      out.Commit();
    } else {
      h.resize(mark);
      out.AppendNull();
    }
  }
  return out.Finish();
}

// Java's String.replace: every occurrence, left to right; an empty `from` inserts `to` before every
// character and at the end.
void Replace(std::string_view s, std::string_view from, std::string_view to, std::string& h) {
  if (from.empty()) {
    for (size_t i = 0; i < s.size();) {
      h.append(to);
      size_t len = utf8::CharBytes(s, i);
      h.append(s.substr(i, len));
      i += len;
    }
    h.append(to);
    return;
  }
  size_t at = 0;
  for (size_t p; (p = s.find(from, at)) != std::string_view::npos; at = p + from.size()) {
    h.append(s.substr(at, p - at));
    h.append(to);
  }
  h.append(s.substr(at));
}

bool IsJavaWhitespace(unsigned char c) { return (c >= 9 && c <= 13) || (c >= 28 && c <= 32); }

// Token `index` of `s` split at every `sep` (empty tokens kept; an empty `sep` splits at each
// whitespace character), as commons-lang's splitByWholeSeparatorPreserveAllTokens.
bool SplitIndex(std::string_view s, std::string_view sep, int32_t index, std::string& h) {
  if (index < 0 || s.empty()) return false;
  size_t begin = 0;
  for (int32_t k = 0;; ++k) {
    size_t end, next;
    if (sep.empty()) {
      end = begin;
      while (end < s.size() && !IsJavaWhitespace(static_cast<unsigned char>(s[end]))) ++end;
      next = end + 1;
    } else {
      end = s.find(sep, begin);
      if (end == std::string_view::npos) end = s.size();
      next = end + sep.size();
    }
    if (k == index) {
      h.append(s.substr(begin, end - begin));
      return true;
    }
    if (end >= s.size()) return false;
    begin = next;
  }
}

// Appends code points [0, count) of `pad` repeated (and cut) to `count` code points.
void AppendPadding(std::string_view pad, int64_t count, std::string& h) {
  const int64_t pad_chars = CodePoints(pad);
  while (count >= pad_chars) {
    h.append(pad);
    count -= pad_chars;
  }
  h.append(pad.substr(0, ByteOffset(pad, count)));
}

// LPAD/RPAD: NULL for a negative length or an empty pad; `s` cut to `len` code points.
bool Pad(std::string_view s, int32_t len, std::string_view pad, bool left, std::string& h) {
  if (len < 0 || pad.empty()) return false;
  const int64_t chars = CodePoints(s);
  const std::string_view kept = s.substr(0, ByteOffset(s, len));
  if (left) AppendPadding(pad, std::max<int64_t>(len - chars, 0), h);
  h.append(kept);
  if (!left) AppendPadding(pad, std::max<int64_t>(len - chars, 0), h);
  return true;
}

// Words are runs of ASCII letters and digits: their first letter goes upper case, the others lower.
void InitCap(std::string_view s, std::string& h) {
  bool start = true;
  for (char ch : s) {
    const bool digit = ch >= '0' && ch <= '9';
    const bool upper = ch >= 'A' && ch <= 'Z';
    const bool lower = ch >= 'a' && ch <= 'z';
    if (start) {
      if (lower) ch = static_cast<char>(ch - 32);
      start = !(digit || upper || lower);
    } else if (upper) {
      ch = static_cast<char>(ch + 32);
    } else if (!digit && !lower) {
      start = true;
    }
    h.push_back(ch);
  }
}

void Reverse(std::string_view s, std::string& h) {
  size_t end = s.size();
  while (end > 0) {
    size_t begin = end - 1;
    while (begin > 0 && utf8::IsContinuation(static_cast<unsigned char>(s[begin]))) --begin;
    h.append(s.substr(begin, end - begin));
    end = begin;
  }
}

// 1-based code point position of `seek` in `s` at or after code point `from` (1-based), 0 when
// absent; an empty `seek` is found at 1.
int32_t Position(std::string_view seek, std::string_view s, int32_t from) {
  if (seek.empty()) return 1;
  const size_t start = ByteOffset(s, std::max(from - 1, 0));
  const size_t at = s.find(seek, start);
  if (at == std::string_view::npos) return 0;
  return static_cast<int32_t>(CodePoints(s.substr(0, at)) + 1);
}

// OVERLAY(s PLACING r FROM start [FOR len]): `s` unchanged when start is not within it; the rest
// of `s` after the replaced part is kept only when it lies within `s`.
void Overlay(std::string_view s, std::string_view r, int32_t start, int32_t len, std::string& h) {
  const int64_t chars = CodePoints(s);
  if (start <= 0 || start > chars) {
    h.append(s);
    return;
  }
  h.append(s.substr(0, ByteOffset(s, start - 1)));
  h.append(r);
  if (static_cast<int64_t>(start) + len <= chars && len > 0) {
    h.append(s.substr(ByteOffset(s, static_cast<int64_t>(start) - 1 + len)));
  }
}

}  // namespace

absl::StatusOr<Column> EvalStringFunction(const Expr& call, const ArgList& args, size_t n) {
  const std::string& f = call.function;
  auto str = [&](size_t a, size_t i) { return args[a]->GetString(i); };
  auto int_at = [&](size_t a, size_t i) { return args[a]->data<int32_t>()[i]; };
  if (f == "REPLACE") {
    return MapRows(call, args, n, [&](size_t i, std::string& h) {
      Replace(str(0, i), str(1, i), str(2, i), h);
      return true;
    });
  }
  if (f == "SPLIT_INDEX") {
    return MapRows(call, args, n, [&](size_t i, std::string& h) {
      return SplitIndex(str(0, i), str(1, i), int_at(2, i), h);
    });
  }
  if (f == "LPAD" || f == "RPAD") {
    const bool left = f == "LPAD";
    return MapRows(call, args, n, [&](size_t i, std::string& h) {
      return Pad(str(0, i), int_at(1, i), str(2, i), left, h);
    });
  }
  if (f == "INITCAP") {
    return MapRows(call, args, n, [&](size_t i, std::string& h) {
      InitCap(str(0, i), h);
      return true;
    });
  }
  if (f == "REVERSE") {
    return MapRows(call, args, n, [&](size_t i, std::string& h) {
      Reverse(str(0, i), h);
      return true;
    });
  }
  if (f == "REPEAT") {
    return MapRows(call, args, n, [&](size_t i, std::string& h) {
      std::string_view s = str(0, i);
      for (int32_t k = int_at(1, i); k > 0; --k) h.append(s);
      return true;
    });
  }
  if (f == "LEFT" || f == "RIGHT") {
    const bool left = f == "LEFT";
    return MapRows(call, args, n, [&](size_t i, std::string& h) {
      std::string_view s = str(0, i);
      const int64_t len = int_at(1, i);
      if (len <= 0) return true;
      h.append(left ? s.substr(0, ByteOffset(s, len))
                    : s.substr(ByteOffset(s, std::max<int64_t>(CodePoints(s) - len, 0))));
      return true;
    });
  }
  if (f == "OVERLAY") {
    return MapRows(call, args, n, [&](size_t i, std::string& h) {
      std::string_view r = str(1, i);
      int32_t len = args.size() == 4 ? int_at(3, i) : static_cast<int32_t>(CodePoints(r));
      Overlay(str(0, i), r, int_at(2, i), len, h);
      return true;
    });
  }
  if (f == "POSITION" || f == "LOCATE") {
    FixedBuilder<int32_t> out(call.type, n);
    out.SetValidity(CombineValidity(args, n));
    int32_t* r = out.values();
    for (size_t i = 0; i < n; ++i) {
      if (out.IsNull(i)) continue;
      r[i] = Position(str(0, i), str(1, i), args.size() == 3 ? int_at(2, i) : 1);
    }
    return out.Finish();
  }
  return InternalError(call, "unknown string function");
}

}  // namespace eddy::eval_internal
