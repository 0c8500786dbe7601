#include "worker/connectors/file_format.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "worker/connectors/csv_format.h"
#include "worker/connectors/json_lines_format.h"

namespace eddy {
namespace {

const std::string* Find(const std::map<std::string, std::string>& m, const std::string& key) {
  auto it = m.find(key);
  return it == m.end() ? nullptr : &it->second;
}

absl::Status Bool(const std::map<std::string, std::string>& m, const std::string& key, bool* out) {
  const std::string* v = Find(m, key);
  if (v == nullptr) return absl::OkStatus();
  const std::string l = absl::AsciiStrToLower(*v);
  if (l != "true" && l != "false") {
    return absl::InvalidArgumentError(
        absl::StrCat("option '", key, "' expects true or false, got '", *v, "'"));
  }
  *out = l == "true";
  return absl::OkStatus();
}

// One character; `\t` (backslash, t) for a tab, as Flink's option reads it.
absl::Status Character(const std::map<std::string, std::string>& m, const std::string& key,
                       char* out) {
  const std::string* v = Find(m, key);
  if (v == nullptr) return absl::OkStatus();
  if (*v == "\\t") {
    *out = '\t';
    return absl::OkStatus();
  }
  if (v->size() != 1 || static_cast<unsigned char>((*v)[0]) >= 0x80 || (*v)[0] == '\n' ||
      (*v)[0] == '\r') {
    return absl::InvalidArgumentError(
        absl::StrCat("option '", key, "' expects a single character, got '", *v, "'"));
  }
  *out = (*v)[0];
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<FileFormatOptions> FileFormatFromOptions(
    const std::map<std::string, std::string>& options) {
  FileFormatOptions f;
  const std::string* format = Find(options, "format");
  if (format == nullptr) return absl::InvalidArgumentError("option 'format' is missing");
  if (*format == "csv") {
    f.kind = FileFormatKind::kCsv;
    CsvOptions& c = f.csv;
    absl::Status s = Character(options, "csv.field-delimiter", &c.field_delimiter);
    if (s.ok()) s = Character(options, "csv.quote-character", &c.quote_character);
    bool disable_quote = false;
    if (s.ok()) s = Bool(options, "csv.disable-quote-character", &disable_quote);
    if (s.ok()) s = Bool(options, "csv.allow-comments", &c.allow_comments);
    if (s.ok()) s = Bool(options, "csv.ignore-parse-errors", &c.ignore_parse_errors);
    if (s.ok()) s = Bool(options, "csv.ignore-first-line", &c.ignore_first_line);
    if (!s.ok()) return s;
    c.quoting = !disable_quote;
    if (const std::string* v = Find(options, "csv.null-literal")) {
      c.has_null_literal = true;
      c.null_literal = *v;
    }
    if (c.quoting && c.quote_character == c.field_delimiter) {
      return absl::InvalidArgumentError(
          "options 'csv.field-delimiter' and 'csv.quote-character' "
          "must differ");
    }
  } else if (*format == "json") {
    f.kind = FileFormatKind::kJson;
    JsonOptions& j = f.json;
    absl::Status s = Bool(options, "json.fail-on-missing-field", &j.fail_on_missing_field);
    if (s.ok()) s = Bool(options, "json.ignore-parse-errors", &j.ignore_parse_errors);
    if (!s.ok()) return s;
    if (const std::string* v = Find(options, "json.timestamp-format.standard")) {
      if (*v != "SQL" && *v != "ISO-8601") {
        return absl::InvalidArgumentError(absl::StrCat(
            "option 'json.timestamp-format.standard' expects SQL or ISO-8601, got '", *v, "'"));
      }
      j.iso8601_timestamps = *v == "ISO-8601";
    }
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("option 'format' expects csv or json, got '", *format, "'"));
  }
  return f;
}

std::unique_ptr<RecordDecoder> MakeRecordDecoder(const FileFormatOptions& format,
                                                 const Schema& file_schema,
                                                 const std::vector<int>& columns) {
  if (format.kind == FileFormatKind::kCsv) {
    return std::make_unique<CsvDecoder>(format.csv, file_schema, columns);
  }
  return std::make_unique<JsonLinesDecoder>(format.json, file_schema, columns);
}

TextRows MakeTextRows(const FileFormatOptions& format, const Schema& file_schema,
                      const std::vector<int>& columns) {
  std::vector<TextRows::ColumnSpec> specs;
  for (int c : columns) {
    const Field& f = file_schema.fields[c];
    std::string label = format.kind == FileFormatKind::kCsv
                            ? absl::StrCat("field ", c + 1, " (column '", f.name, "')")
                            : absl::StrCat("field '", f.name, "'");
    specs.push_back({f.type, std::move(label)});
  }
  return TextRows(std::move(specs));
}

std::unique_ptr<RecordEncoder> MakeRecordEncoder(const FileFormatOptions& format,
                                                 const Schema& schema) {
  if (format.kind == FileFormatKind::kCsv) return std::make_unique<CsvEncoder>(format.csv, schema);
  return std::make_unique<JsonLinesEncoder>(format.json, schema);
}

std::string_view TrimTimestampFraction(std::string_view text) {
  const size_t dot = text.rfind('.');
  if (dot == std::string_view::npos || text.find(':') == std::string_view::npos ||
      dot < text.rfind(':')) {
    return text;
  }
  size_t end = text.size();
  while (end > dot + 1 && text[end - 1] == '0') --end;
  if (end == dot + 1) end = dot;
  return text.substr(0, end);
}

}  // namespace eddy
