// JSON lines as the filesystem connector reads and writes it (Flink's json format, one object per
// line): fields match columns by name (exactly as the table spells them), unknown fields are
// ignored, a missing field or JSON null is NULL. Numbers, strings and booleans convert to the
// column type by CAST rules (so "12" fills an INT column); a nested object or array fills a STRING
// column with its JSON text. Writing: {"name":value,...} without spaces, NULL as null, DECIMAL and
// integers as numbers, DATE/TIMESTAMP as strings, NaN/Infinity as strings (as Jackson writes them).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "worker/connectors/file_format.h"

namespace eddy {

class JsonLinesDecoder : public RecordDecoder {
 public:
  JsonLinesDecoder(JsonOptions options, const Schema& file_schema, const std::vector<int>& columns);

  void StartFile() override;
  void ResumeFile(int64_t next_line) override;
  int64_t next_line() const override { return line_; }
  absl::StatusOr<size_t> Decode(std::string_view data, bool eof, size_t max_rows,
                                TextRows* rows) override;

 private:
  struct Span {
    size_t begin = 0;  // into the line, or into scratch_ when in_scratch
    size_t size = 0;
    bool in_scratch = false;
    bool null = true;
    bool seen = false;
  };
  // Parses one object into spans_; an error names the 1-based byte column in *error_column.
  absl::Status ParseLine(std::string_view line, size_t* error_column);

  JsonOptions options_;
  std::vector<std::string> names_;  // per output column
  absl::flat_hash_map<std::string, int> column_of_;
  int64_t line_ = 1;
  bool at_file_start_ = true;
  std::vector<Span> spans_;
  std::string scratch_;  // unescaped string values of the current line
  std::string key_;      // an escaped field name, unescaped
  std::string skipped_;  // strings inside a nested value
  std::vector<FieldText> values_;
};

class JsonLinesEncoder : public RecordEncoder {
 public:
  JsonLinesEncoder(JsonOptions options, const Schema& schema);
  absl::Status Encode(const ChangelogBatch& batch, std::string* out) override;

 private:
  JsonOptions options_;
  std::vector<std::string> keys_;  // `{"a":` for the first column, `,"b":` for the others
};

}  // namespace eddy
