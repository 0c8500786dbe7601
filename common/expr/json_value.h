// A small JSON document model for the JSON functions (JSON_VALUE, JSON_QUERY, IS JSON): parsing
// (RFC 8259), compact writing as Flink's JSON functions write (keys sorted, numbers as
// java.math.BigDecimal prints them), and SQL/JSON path expressions ('[lax|strict] $.a.b[0]', with
// .*, [*] and ['key']; strict when no mode is given, as in Flink).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace eddy::json {

struct Value {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  std::string text;               // kNumber: as written; kString: unescaped
  std::vector<std::string> keys;  // kObject, in document order
  std::vector<Value> items;       // kArray elements; kObject values (parallel to keys)

  bool IsScalar() const { return kind != Kind::kArray && kind != Kind::kObject; }
};

// Parses one JSON value (surrounding whitespace allowed); false when `text` is not JSON.
bool Parse(std::string_view text, Value* out);

// Appends `v` compactly with the keys of every object sorted: {"a":1,"b":[true,null]}.
void Write(const Value& v, std::string* out);
// A number's text as Flink prints what it read (integers as written, decimals as BigDecimal:
// 2.50 stays 2.50, 1e2 is 1E+2, 15e-4 is 0.0015).
std::string NumberText(std::string_view written);

// A compiled SQL/JSON path.
class Path {
 public:
  // InvalidArgument "Invalid JSON path '$.': ..." for bad syntax.
  static absl::StatusOr<Path> Compile(std::string_view text);

  struct Result {
    std::vector<const Value*> values;
    bool definite = true;  // no wildcard: at most one value
    bool error = false;    // strict mode: a step did not apply
  };
  Result Evaluate(const Value& root) const;
  bool strict() const { return strict_; }

 private:
  struct Step {
    enum class Kind { kMember, kAnyMember, kIndex, kAnyIndex } kind;
    std::string name;
    int64_t index = 0;
  };
  bool strict_ = true;
  std::vector<Step> steps_;
};

}  // namespace eddy::json
