// The text formats of the filesystem connector (CSV and JSON lines): the decoder/encoder contracts
// the source and the sink drive, over the options common/connectors/format_options.h parses (the
// parser the planner validates them with). Decoders turn a file's bytes into TextRows (text per
// field, converted by CAST rules); encoders turn batches into lines. Both keep their buffers, so
// the per-row work allocates nothing.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/batch/changelog_batch.h"
#include "common/connectors/format_options.h"
#include "common/types/data_type.h"
#include "worker/connectors/text_rows.h"

namespace eddy {

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
std::unique_ptr<RecordDecoder> MakeRecordDecoder(const FormatOptions& format,
                                                 const Schema& file_schema,
                                                 const std::vector<int>& columns);
TextRows MakeTextRows(const FormatOptions& format, const Schema& file_schema,
                      const std::vector<int>& columns);

// The encoder of rows with columns `schema` (names are JSON field names).
std::unique_ptr<RecordEncoder> MakeRecordEncoder(const FormatOptions& format, const Schema& schema);

// Timestamp text as Flink's CSV and JSON formats write it (ISO local time: the fraction without
// trailing zeros, none when zero): "2024-01-31 10:00:00.120" -> "2024-01-31 10:00:00.12".
std::string_view TrimTimestampFraction(std::string_view text);

}  // namespace eddy
