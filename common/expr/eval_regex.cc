// Kernels of REGEXP, REGEXP_EXTRACT and REGEXP_REPLACE. A constant pattern is compiled once per
// call expression and kept in its KernelState; a pattern from a column is compiled when it
// differs from the previous row's. As in Flink, a pattern that does not compile gives FALSE
// (REGEXP) or NULL (the others) on that row; a constant one is refused while planning.
#include <memory>
#include <string>

#include "common/expr/eval_internal.h"
#include "common/expr/regex.h"

namespace eddy::eval_internal {
namespace {

// Hands out the compiled pattern of each row.
class PatternSource {
 public:
  PatternSource(const Expr& call, const Column& patterns) : call_(call), patterns_(patterns) {}

  // nullptr when the row's pattern does not compile.
  const RE2* Get(size_t i) {
    const Expr& p = *call_.args[1];
    if (p.kind == ExprKind::kLiteral && p.literal.is_string()) {
      if (!constant_checked_) {
        constant_checked_ = true;
        auto re = call_.kernel_state.GetOrCreate<const RE2>(
            [&] { return CompileRegex(p.literal.string_value(), call_.function); });
        if (re.ok()) current_ = *re;
      }
      return current_.get();
    }
    std::string_view text = patterns_.GetString(i);
    if (!has_text_ || text != text_) {
      text_.assign(text);
      has_text_ = true;
      auto re = CompileRegex(text, call_.function);
      current_ = re.ok() ? *re : nullptr;
    }
    return current_.get();
  }

 private:
  const Expr& call_;
  const Column& patterns_;
  bool constant_checked_ = false;
  bool has_text_ = false;
  std::string text_;
  std::shared_ptr<const RE2> current_;
};

re2::StringPiece Piece(std::string_view s) { return re2::StringPiece(s.data(), s.size()); }

}  // namespace

absl::StatusOr<Column> EvalRegex(const Expr& call, const ArgList& args, size_t n) {
  const std::string& f = call.function;
  if (args.size() < 2 || call.args.size() != args.size()) return InternalError(call, "arguments");
  PatternSource patterns(call, *args[1]);
  auto validity = CombineValidity(args, n);
  auto is_null = [&](size_t i) {
    return !validity.empty() && !(validity[i >> 3] & (1u << (i & 7)));
  };
  if (f == "REGEXP") {
    FixedBuilder<uint8_t> out(call.type, n);
    out.SetValidity(validity);
    uint8_t* r = out.values();
    for (size_t i = 0; i < n; ++i) {
      if (is_null(i)) continue;
      const RE2* re = patterns.Get(i);
      // Flink: an empty pattern matches nothing.
      r[i] = re != nullptr && !args[1]->GetString(i).empty() &&
             RE2::PartialMatch(Piece(args[0]->GetString(i)), *re);
    }
    return out.Finish();
  }
  StringBuilder out(call.type, n);
  if (f == "REGEXP_EXTRACT") {
    std::vector<re2::StringPiece> groups;
    for (size_t i = 0; i < n; ++i) {
      const RE2* re = is_null(i) ? nullptr : patterns.Get(i);
      const int32_t index = args.size() == 3 ? args[2]->data<int32_t>()[i] : 0;
      if (re == nullptr || index < 0 || index > re->NumberOfCapturingGroups()) {
        out.AppendNull();
        continue;
      }
      groups.resize(static_cast<size_t>(index) + 1);
      std::string_view s = args[0]->GetString(i);
      if (!re->Match(Piece(s), 0, s.size(), RE2::UNANCHORED, groups.data(), index + 1) ||
          groups[index].data() == nullptr) {
        out.AppendNull();  // no match, or the group took no part in it
        continue;
      }
      out.Append(std::string_view(groups[index].data(), groups[index].size()));
    }
    return out.Finish();
  }
  if (f == "REGEXP_REPLACE") {
    for (size_t i = 0; i < n; ++i) {
      const RE2* re = is_null(i) ? nullptr : patterns.Get(i);
      if (re == nullptr) {
        out.AppendNull();
        continue;
      }
      RegexReplaceAll(*re, args[0]->GetString(i), args[2]->GetString(i), &out.heap());
      out.Commit();
    }
    return out.Finish();
  }
  return InternalError(call, "unknown regular expression function");
}

}  // namespace eddy::eval_internal
