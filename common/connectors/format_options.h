// The record formats connectors read and write (csv, json, raw) and their options, parsed by one
// function for the planner (CREATE TABLE) and the worker (building a source or sink). A format is
// named by a format option ('format' of the filesystem connector, 'key.format' / 'value.format' /
// 'format' of kafka) and its options carry that option's prefix and the format's name, as in
// Flink: 'csv.field-delimiter', 'value.json.ignore-parse-errors', 'key.csv.quote-character'.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "common/connectors/connector_config.h"
#include "common/types/data_type.h"

namespace eddy {

struct CsvOptions {
  char field_delimiter = ',';        // csv.field-delimiter
  bool quoting = true;               // false: csv.disable-quote-character
  char quote_character = '"';        // csv.quote-character
  bool allow_comments = false;       // csv.allow-comments: skip lines starting with '#'
  bool ignore_parse_errors = false;  // csv.ignore-parse-errors
  bool has_null_literal = false;     // csv.null-literal set
  std::string null_literal;
  bool ignore_first_line = false;  // csv.ignore-first-line: a header line (filesystem source only)
};

struct JsonOptions {
  bool fail_on_missing_field = false;  // json.fail-on-missing-field
  bool ignore_parse_errors = false;    // json.ignore-parse-errors
  bool iso8601_timestamps = false;     // json.timestamp-format.standard = 'ISO-8601' (writing)
};

enum class FormatKind { kCsv, kJson, kRaw };

struct FormatOptions {
  FormatKind kind = FormatKind::kCsv;
  CsvOptions csv;
  JsonOptions json;

  bool ignore_parse_errors() const {
    switch (kind) {
      case FormatKind::kCsv:
        return csv.ignore_parse_errors;
      case FormatKind::kJson:
        return json.ignore_parse_errors;
      case FormatKind::kRaw:
        return false;
    }
    return false;
  }
  // File name extension of the filesystem sink's files.
  std::string_view extension() const {
    switch (kind) {
      case FormatKind::kCsv:
        return "csv";
      case FormatKind::kJson:
        return "json";
      case FormatKind::kRaw:
        return "raw";
    }
    return "";
  }
};

std::string_view FormatName(FormatKind kind);

// Reads the format that option `format_key` names (an error when it is unset) and that format's
// options, marking them read in `config`. `allowed` lists the formats the connector takes, in the
// order an error lists them. `with_ignore_first_line`: whether csv.ignore-first-line is an option
// here (a file has a header line, a Kafka record does not).
absl::StatusOr<FormatOptions> ReadFormat(ConnectorConfig& config, const std::string& format_key,
                                         std::initializer_list<FormatKind> allowed,
                                         bool with_ignore_first_line = false);

// Checks that a format can hold the columns `columns` (names for errors): raw holds exactly one
// STRING column; csv holds no ARRAY, MAP or ROW column. `what` names them in the error ("the value
// columns").
absl::Status CheckFormatColumns(const FormatOptions& format, const Schema& columns,
                                const std::string& table, const std::string& what);

}  // namespace eddy
