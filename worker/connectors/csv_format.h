// CSV as the filesystem connector reads and writes it (RFC 4180 with Flink's csv.* options): fields
// split by one delimiter character; a field may be quoted, and then holds delimiters, line breaks
// and doubled quotes; records end at LF or CRLF. Reading: an empty field is NULL except in a STRING
// column (the empty string), a field equal to csv.null-literal (unquoted) is NULL in any column,
// empty lines are skipped. Writing: a field is quoted only when it must be (delimiter, quote, line
// break, the empty string, a string equal to the null literal); NULL is the null literal or
// nothing.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "worker/connectors/file_format.h"

namespace eddy {

class CsvDecoder : public RecordDecoder {
 public:
  // `columns`: the table columns read (indexes into file_schema), in output order.
  CsvDecoder(CsvOptions options, const Schema& file_schema, const std::vector<int>& columns);

  void StartFile() override;
  void ResumeFile(int64_t next_line) override;
  int64_t next_line() const override { return line_; }
  absl::StatusOr<size_t> Decode(std::string_view data, bool eof, size_t max_rows,
                                TextRows* rows) override;

 private:
  struct Span {
    size_t begin = 0;  // into the data, or into unescaped_ when in_scratch
    size_t size = 0;
    bool quoted = false;
    bool in_scratch = false;
  };
  enum class Parse { kOk, kNeedMore, kError };
  // Splits the record at data[start] into spans_. kOk: *end is past its line end, *newlines the
  // line breaks inside quoted fields. kError: *error says what, at byte *error_pos.
  Parse ParseRecord(std::string_view data, size_t start, bool eof, size_t* end, int64_t* newlines,
                    std::string* error, size_t* error_pos);
  // "line L, column C" of byte `pos` of the record starting at data[start] (on line line_).
  std::string Where(std::string_view data, size_t start, size_t pos) const;

  CsvOptions options_;
  size_t num_fields_;
  std::vector<int> field_to_column_;  // per file field: the output column, or -1 when not read
  std::vector<bool> column_is_string_;
  int64_t line_ = 1;  // of the next record
  bool at_file_start_ = true;
  bool header_pending_ = false;
  bool unterminated_ = false;  // the last kError: a quote that never closes
  std::vector<Span> spans_;
  std::string unescaped_;
  std::vector<FieldText> values_;
};

class CsvEncoder : public RecordEncoder {
 public:
  CsvEncoder(CsvOptions options, const Schema& schema);
  absl::Status Encode(const ChangelogBatch& batch, std::string* out) override;

 private:
  void AppendField(std::string_view text, bool is_string, bool first, std::string* out) const;

  CsvOptions options_;
  Schema schema_;
};

}  // namespace eddy
