// The text formats of the filesystem connector (CSV and JSON lines): their options as a table's
// WITH clause sets them, and the decoder/encoder contracts the source and the sink drive. Decoders
// turn a file's bytes into TextRows (text per field, converted by CAST rules); encoders turn
// batches into lines. Both keep their buffers, so the per-row work allocates nothing.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/batch/changelog_batch.h"
#include "common/types/data_type.h"
#include "worker/connectors/text_rows.h"

namespace eddy {

struct CsvOptions {
  char field_delimiter = ',';        // csv.field-delimiter
  bool quoting = true;               // false: csv.disable-quote-character
  char quote_character = '"';        // csv.quote-character
  bool allow_comments = false;       // csv.allow-comments: skip lines starting with '#'
  bool ignore_parse_errors = false;  // csv.ignore-parse-errors
  bool has_null_literal = false;     // csv.null-literal set
  std::string null_literal;
  bool ignore_first_line = false;  // csv.ignore-first-line: a header line (source only)
};

struct JsonOptions {
  bool fail_on_missing_field = false;  // json.fail-on-missing-field
  bool ignore_parse_errors = false;    // json.ignore-parse-errors
  bool iso8601_timestamps = false;     // json.timestamp-format.standard = 'ISO-8601' (writing)
};

enum class FileFormatKind { kCsv, kJson };

struct FileFormatOptions {
  FileFormatKind kind = FileFormatKind::kCsv;
  CsvOptions csv;
  JsonOptions json;

  bool ignore_parse_errors() const {
    return kind == FileFormatKind::kCsv ? csv.ignore_parse_errors : json.ignore_parse_errors;
  }
  // File name extension of the sink's files.
  std::string_view extension() const { return kind == FileFormatKind::kCsv ? "csv" : "json"; }
};

// Reads 'format' and the csv.* / json.* options of a table (the coordinator validated them at
// CREATE TABLE; a bad value is still an error here, never a crash). Other keys are ignored.
absl::StatusOr<FileFormatOptions> FileFormatFromOptions(
    const std::map<std::string, std::string>& options);

// Decodes records from a file's bytes, which arrive in chunks: Decode sees the unread rest of the
// data read so far and consumes only complete records, so a record split across chunks is decoded
// once the rest arrived.
class RecordDecoder {
 public:
  virtual ~RecordDecoder() = default;
  // A new file begins (line numbers restart at 1, a header line or byte order mark is skipped).
  virtual void StartFile() = 0;
  // Continues a file from a checkpointed position between records: the next record is on line
  // `next_line`, and no header line or byte order mark comes first.
  virtual void ResumeFile(int64_t next_line) = 0;
  // The line of the next record (what ResumeFile takes back).
  virtual int64_t next_line() const = 0;
  // Appends the complete records at the start of `data` to `rows` until it holds `max_rows` rows;
  // `eof` says `data` ends the file (its last record may lack a line end). Returns the bytes
  // consumed. A malformed record is an error `line N[, column C]: ...` unless parse errors are
  // ignored, when it is skipped.
  virtual absl::StatusOr<size_t> Decode(std::string_view data, bool eof, size_t max_rows,
                                        TextRows* rows) = 0;
};

// Writes a batch's rows (all +I) as lines.
class RecordEncoder {
 public:
  virtual ~RecordEncoder() = default;
  virtual absl::Status Encode(const ChangelogBatch& batch, std::string* out) = 0;
};

// The decoder for the table columns `columns` (indexes into `file_schema`, in output order), and
// the TextRows they fill.
std::unique_ptr<RecordDecoder> MakeRecordDecoder(const FileFormatOptions& format,
                                                 const Schema& file_schema,
                                                 const std::vector<int>& columns);
TextRows MakeTextRows(const FileFormatOptions& format, const Schema& file_schema,
                      const std::vector<int>& columns);

// The encoder of rows with columns `schema` (names are JSON field names).
std::unique_ptr<RecordEncoder> MakeRecordEncoder(const FileFormatOptions& format,
                                                 const Schema& schema);

// Timestamp text as Flink's CSV and JSON formats write it (ISO local time: the fraction without
// trailing zeros, none when zero): "2024-01-31 10:00:00.120" -> "2024-01-31 10:00:00.12".
std::string_view TrimTimestampFraction(std::string_view text);

}  // namespace eddy
