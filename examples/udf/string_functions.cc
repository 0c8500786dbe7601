// Example user-defined functions, built into libeddy_example_udfs.so (see docs/udf.md):
//   mask_digits(STRING) -> STRING     every ASCII digit replaced by '*'
//   weighted(BIGINT, DOUBLE) -> DOUBLE  the product, NULL when either is NULL
//   checked_code(STRING) -> STRING    the value upper-cased; throws on a value starting with "bad"
//   split_words(STRING) -> TABLE(word STRING, pos INT)  one row per space-separated word
#include <string>
#include <string_view>

#include "eddy/udf.h"

namespace {

using eddy::udf::Args;
using eddy::udf::Output;
using eddy::udf::Type;

class MaskDigits {
 public:
  static eddy::udf::Signature Signature() { return {{Type::String()}, {Type::String()}}; }
  void Eval(const Args& args, Output& out) {
    const auto in = args[0];
    for (int64_t row = 0; row < args.rows(); ++row) {
      if (in.IsNull(row)) {
        out.AppendNull();
        continue;
      }
      scratch_.assign(in.String(row));
      for (char& c : scratch_) {
        if (c >= '0' && c <= '9') c = '*';
      }
      out.Append(std::string_view(scratch_));
    }
  }

 private:
  std::string scratch_;  // reused: no allocation per row once it has grown
};

class Weighted {
 public:
  static eddy::udf::Signature Signature() {
    return {{Type::BigInt(), Type::Double()}, {Type::Double()}};
  }
  void Eval(const Args& args, Output& out) {
    const auto n = args[0];
    const auto w = args[1];
    for (int64_t row = 0; row < args.rows(); ++row) {
      if (n.IsNull(row) || w.IsNull(row)) {
        out.AppendNull();
      } else {
        out.Append(static_cast<double>(n.Get<int64_t>(row)) * w.Get<double>(row));
      }
    }
  }
};

class CheckedCode {
 public:
  static eddy::udf::Signature Signature() { return {{Type::String()}, {Type::String()}}; }
  void Eval(const Args& args, Output& out) {
    const auto in = args[0];
    for (int64_t row = 0; row < args.rows(); ++row) {
      if (in.IsNull(row)) {
        out.AppendNull();
        continue;
      }
      std::string_view v = in.String(row);
      if (v.substr(0, 3) == "bad") {
        throw eddy::udf::Error("invalid code '" + std::string(v) + "'");
      }
      scratch_.assign(v);
      for (char& c : scratch_) {
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
      }
      out.Append(std::string_view(scratch_));
    }
  }

 private:
  std::string scratch_;
};

class SplitWords {
 public:
  static eddy::udf::Signature Signature() {
    return {{Type::String()}, {Type::String(), Type::Int()}, {"word", "pos"}};
  }
  void Eval(const Args& args, Output& out) {
    const auto in = args[0];
    for (int64_t row = 0; row < args.rows(); ++row) {
      if (in.IsNull(row)) continue;  // no rows for NULL
      std::string_view s = in.String(row);
      int32_t pos = 0;
      size_t begin = 0;
      while (begin <= s.size()) {
        size_t end = s.find(' ', begin);
        if (end == std::string_view::npos) end = s.size();
        if (end > begin) {
          out.Append(s.substr(begin, end - begin), 0);
          out.Append(pos++, 1);
          out.EndRow(row);
        }
        begin = end + 1;
      }
    }
  }
};

}  // namespace

EDDY_SCALAR_FUNCTION(mask_digits, MaskDigits)
EDDY_SCALAR_FUNCTION(weighted, Weighted)
EDDY_SCALAR_FUNCTION(checked_code, CheckedCode)
EDDY_TABLE_FUNCTION(split_words, SplitWords)
