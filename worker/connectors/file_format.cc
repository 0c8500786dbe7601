#include "worker/connectors/file_format.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "worker/connectors/csv_format.h"
#include "worker/connectors/json_lines_format.h"

namespace eddy {
std::unique_ptr<RecordDecoder> MakeRecordDecoder(const FormatOptions& format,
                                                 const Schema& file_schema,
                                                 const std::vector<int>& columns) {
  if (format.kind == FormatKind::kCsv) {
    return std::make_unique<CsvDecoder>(format.csv, file_schema, columns);
  }
  return std::make_unique<JsonLinesDecoder>(format.json, file_schema, columns);
}

TextRows MakeTextRows(const FormatOptions& format, const Schema& file_schema,
                      const std::vector<int>& columns) {
  std::vector<TextRows::ColumnSpec> specs;
  for (int c : columns) {
    const Field& f = file_schema.fields[c];
    std::string label = format.kind == FormatKind::kCsv
                            ? absl::StrCat("field ", c + 1, " (column '", f.name, "')")
                            : absl::StrCat("field '", f.name, "'");
    specs.push_back({f.type, std::move(label), format.kind == FormatKind::kRaw});
  }
  return TextRows(std::move(specs));
}

std::unique_ptr<RecordEncoder> MakeRecordEncoder(const FormatOptions& format,
                                                 const Schema& schema) {
  if (format.kind == FormatKind::kCsv) return std::make_unique<CsvEncoder>(format.csv, schema);
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
