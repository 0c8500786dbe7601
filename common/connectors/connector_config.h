// The one configuration object of a connector: a table's WITH options (without 'connector') with
// typed reads whose errors name the option and the table. The planner validates a table through
// it at CREATE TABLE and workers read the same options through it when they build the table's
// source or sink, so both sides parse an option with the same code. Every read marks its key;
// `CheckAllRead` then makes any option the connector does not know an error, so that no option is
// ever silently ignored.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace eddy {

class ConnectorConfig {
 public:
  ConnectorConfig(std::string connector, std::string table,
                  std::map<std::string, std::string> options);

  const std::string& connector() const { return connector_; }
  const std::string& table() const { return table_; }
  const std::map<std::string, std::string>& options() const { return options_; }

  // Whether the option is set (does not mark it read).
  bool Has(const std::string& key) const { return options_.count(key) > 0; }

  // The value, marking the key read; nullopt when unset.
  std::optional<std::string> Get(const std::string& key);
  // The value, or an error "table 't' (connector 'c') needs option 'k'" (`hint`, when given,
  // follows in parentheses: "('csv' or 'json')").
  absl::StatusOr<std::string> Required(const std::string& key, std::string_view hint = "");
  absl::StatusOr<bool> Bool(const std::string& key, bool default_value);
  // An integer >= `min`; the error says "a positive integer" (min 1), "a non-negative integer"
  // (min 0) or "an integer".
  absl::StatusOr<int64_t> Int(const std::string& key, int64_t default_value,
                              int64_t min = INT64_MIN);
  absl::StatusOr<double> Number(const std::string& key, double default_value);
  absl::StatusOr<double> PositiveNumber(const std::string& key, double default_value);
  // A positive duration ("30 min", "100 ms"; Flink's spelling, common/base/duration.h).
  absl::StatusOr<int64_t> DurationMs(const std::string& key, int64_t default_value);
  // A duration >= 0.
  absl::StatusOr<int64_t> NonNegativeDurationMs(const std::string& key, int64_t default_value);
  // A positive memory size ("128mb").
  absl::StatusOr<int64_t> MemoryBytes(const std::string& key, int64_t default_value);
  // One of `allowed` (exact spelling); the error lists them: "one of a, b".
  absl::StatusOr<std::string> Enum(const std::string& key,
                                   std::initializer_list<std::string_view> allowed,
                                   std::string default_value);
  // One ASCII character other than a line break; Flink's '\t' (backslash, t) means a tab.
  absl::StatusOr<char> Character(const std::string& key, char default_value);
  // Every option whose key starts with `prefix`, keyed without it, marking them read.
  std::map<std::string, std::string> WithPrefix(std::string_view prefix);
  // Marks an option read whose value the caller takes as it is (any text is valid).
  void MarkRead(const std::string& key) { read_.insert(key); }

  // An error naming the first option that nothing read: "unsupported option 'k' for connector
  // 'c' of table 't'".
  absl::Status CheckAllRead() const;

  // "option 'k' of table 't' expects <expects>, got 'v'"
  absl::Status Bad(const std::string& key, std::string_view expects) const;
  // An InvalidArgument error with this message (the planner adds "Validation error: ").
  static absl::Status Error(std::string message);

 private:
  const std::string* Find(const std::string& key);

  std::string connector_;
  std::string table_;
  std::map<std::string, std::string> options_;
  std::set<std::string> read_;
};

}  // namespace eddy
