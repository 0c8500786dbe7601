#include "common/connectors/format_options.h"

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"

namespace eddy {
namespace {

absl::Status ReadCsv(ConnectorConfig& config, const std::string& prefix,
                     bool with_ignore_first_line, CsvOptions* c) {
  const std::string delimiter_key = prefix + "csv.field-delimiter";
  const std::string quote_key = prefix + "csv.quote-character";
  const std::string disable_key = prefix + "csv.disable-quote-character";
  ASSIGN_OR_RETURN(c->field_delimiter, config.Character(delimiter_key, ','));
  const bool quote_set = config.Has(quote_key);
  ASSIGN_OR_RETURN(c->quote_character, config.Character(quote_key, '"'));
  ASSIGN_OR_RETURN(const bool disabled, config.Bool(disable_key, false));
  c->quoting = !disabled;
  ASSIGN_OR_RETURN(c->allow_comments, config.Bool(prefix + "csv.allow-comments", false));
  ASSIGN_OR_RETURN(c->ignore_parse_errors, config.Bool(prefix + "csv.ignore-parse-errors", false));
  if (with_ignore_first_line) {
    ASSIGN_OR_RETURN(c->ignore_first_line, config.Bool(prefix + "csv.ignore-first-line", false));
  }
  if (std::optional<std::string> null_literal = config.Get(prefix + "csv.null-literal")) {
    c->has_null_literal = true;  // any text, the empty string included
    c->null_literal = *null_literal;
  }
  if (quote_set && disabled) {
    return ConnectorConfig::Error(absl::StrCat("table '", config.table(), "' cannot set both '",
                                               quote_key, "' and '", disable_key, "' = 'true'"));
  }
  if (c->quoting && c->quote_character == c->field_delimiter) {
    return ConnectorConfig::Error(absl::StrCat("options '", delimiter_key, "' and '", quote_key,
                                               "' of table '", config.table(), "' must differ"));
  }
  return absl::OkStatus();
}

absl::Status ReadJson(ConnectorConfig& config, const std::string& prefix, JsonOptions* j) {
  const std::string missing_key = prefix + "json.fail-on-missing-field";
  const std::string ignore_key = prefix + "json.ignore-parse-errors";
  ASSIGN_OR_RETURN(j->fail_on_missing_field, config.Bool(missing_key, false));
  ASSIGN_OR_RETURN(j->ignore_parse_errors, config.Bool(ignore_key, false));
  ASSIGN_OR_RETURN(
      const std::string standard,
      config.Enum(prefix + "json.timestamp-format.standard", {"SQL", "ISO-8601"}, "SQL"));
  j->iso8601_timestamps = standard == "ISO-8601";
  if (j->fail_on_missing_field && j->ignore_parse_errors) {
    return ConnectorConfig::Error(absl::StrCat("table '", config.table(), "' cannot set both '",
                                               missing_key, "' and '", ignore_key, "' to true"));
  }
  return absl::OkStatus();
}

// Flink's raw format: the bytes of one column, a STRING (UTF-8 text) or a BYTES (the bytes as they
// are).
absl::Status ReadRaw(ConnectorConfig& config, const std::string& prefix) {
  RETURN_IF_ERROR(config.Enum(prefix + "raw.charset", {"UTF-8"}, "UTF-8").status());
  // The byte order of numeric columns; STRING and BYTES, the kinds raw holds here, have none.
  return config.Enum(prefix + "raw.endianness", {"big-endian", "little-endian"}, "big-endian")
      .status();
}

}  // namespace

std::string_view FormatName(FormatKind kind) {
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

absl::StatusOr<FormatOptions> ReadFormat(ConnectorConfig& config, const std::string& format_key,
                                         std::initializer_list<FormatKind> allowed,
                                         bool with_ignore_first_line) {
  if (!config.Has(format_key)) {
    std::string names;
    for (FormatKind k : allowed) {
      absl::StrAppend(&names, names.empty() ? "'" : " or '", std::string(FormatName(k)), "'");
    }
    RETURN_IF_ERROR(config.Required(format_key, names).status());
  }
  const std::string value = *config.Get(format_key);
  FormatOptions f;
  bool found = false;
  std::string list;
  for (FormatKind k : allowed) {
    absl::StrAppend(&list, list.empty() ? "" : ", ", std::string(FormatName(k)));
    if (value == FormatName(k)) {
      f.kind = k;
      found = true;
    }
  }
  if (!found) return config.Bad(format_key, absl::StrCat("one of ", list));
  // 'format' -> "", 'value.format' -> "value.".
  const std::string prefix = format_key.substr(0, format_key.size() - std::string("format").size());
  switch (f.kind) {
    case FormatKind::kCsv:
      RETURN_IF_ERROR(ReadCsv(config, prefix, with_ignore_first_line, &f.csv));
      break;
    case FormatKind::kJson:
      RETURN_IF_ERROR(ReadJson(config, prefix, &f.json));
      break;
    case FormatKind::kRaw:
      RETURN_IF_ERROR(ReadRaw(config, prefix));
      break;
  }
  return f;
}

absl::Status CheckFormatColumns(const FormatOptions& format, const Schema& columns,
                                const std::string& table, const std::string& what) {
  if (format.kind == FormatKind::kCsv) {
    for (const Field& f : columns.fields) {
      if (!f.type.IsCollection()) continue;
      return ConnectorConfig::Error(absl::StrCat(
          "table '", table, "': the 'csv' format does not support column '", f.name, "' of type ",
          f.type.ToString(), " (ARRAY, MAP and ROW columns need the 'json' format)"));
    }
  }
  if (format.kind != FormatKind::kRaw) return absl::OkStatus();
  if (columns.size() != 1 ||
      (columns.fields[0].type.id != TypeId::kString && !columns.fields[0].type.IsBinary())) {
    std::string got;
    for (const Field& f : columns.fields) {
      absl::StrAppend(&got, got.empty() ? "" : ", ", f.name, " ", f.type.ToString());
    }
    return ConnectorConfig::Error(absl::StrCat(
        "table '", table, "': the 'raw' format holds exactly one STRING or BYTES column, but ",
        what, " are [", got, "]"));
  }
  return absl::OkStatus();
}

}  // namespace eddy
