// The filesystem connector as a bounded source: reads a file, or the regular files of a directory
// (names starting with '.' or '_' skipped, not recursive) in name order, subtask i of p taking
// files i, i + p, ...; decodes them (CSV or JSON lines) in 1 MiB chunks into batches of up to 1024
// rows, one file per batch so that every error names its file and line. Ends after the last file.
// The path (and every file, should a symlink lead elsewhere) must lie in the worker's allowed
// directories. Its checkpoint position, taken between batches, is the index of the file being read
// among this subtask's files ("file"), the byte offset of the next undecoded record in it
// ("offset") and that record's line ("line"), so that messages after a restore name the right
// lines.
// A partitioned table (PARTITIONED BY) is read from its partition directories `k1=v1/k2=v2` (those
// the planner kept, or all that exist), files in (directory, name) order; the files hold the other
// columns, and the partition columns are filled from the directory names, typed by CAST.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "eddy/v1/plan.pb.h"
#include "worker/connectors/file_format.h"
#include "worker/operators/source.h"

namespace eddy {

class FilesystemSource : public Source {
 public:
  // Checks the spec and its path against `allowed_dirs` (canonical, see
  // common/base/allowed_paths.h).
  static absl::StatusOr<std::unique_ptr<FilesystemSource>> Create(
      const v1::TableSource& spec, const std::vector<std::string>& allowed_dirs);
  ~FilesystemSource() override;

  absl::Status Open(const OperatorContext& ctx) override;
  absl::StatusOr<SourceState> Next(ChangelogBatch* out) override;
  absl::Status Close() override;
  absl::Status SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) override;
  absl::Status RestoreState(const OperatorSnapshot& snapshot) override;

  // The files this subtask reads, after Open.
  const std::vector<std::string>& files() const { return files_; }

 private:
  FilesystemSource() = default;
  absl::Status Error(absl::string_view message) const;      // names the table
  absl::Status FileError(absl::string_view message) const;  // names the table and the file
  // Opens `path` at byte `offset` (0: from the start, header and byte order mark included).
  absl::Status OpenFile(const std::string& path, int64_t offset = 0, int64_t line = 1);
  void CloseFile();
  absl::Status ReadMore();
  absl::StatusOr<SourceState> EmitBatch(ChangelogBatch* out);
  // The files of the table's directory (not partitioned), or of its partitions with their indexes.
  absl::Status ListFiles(std::vector<std::string>* files, std::vector<int>* partitions);
  // The typed values of partition `index` (one per partition column).
  absl::Status LoadPartitionValues(int index);

  std::string table_name_;
  std::string path_;
  FormatOptions format_;
  Schema file_schema_;
  std::vector<int> columns_;
  std::vector<std::string> allowed_dirs_;

  // Partitioned tables. output_[i]: for output column i, the decoded column (>= 0) or the
  // partition column -1 - k (k indexes partition_keys_).
  std::vector<int> partition_keys_;  // indexes into the table schema
  std::vector<Field> partition_fields_;
  std::vector<std::string> partition_dirs_;  // relative, as listed
  bool partitions_pruned_ = false;
  std::string default_partition_name_;
  std::vector<int> output_;
  std::vector<int> file_partition_;  // per files_ entry: its index in partition_dirs_
  int loaded_partition_ = -1;
  std::vector<Value> partition_values_;

  std::vector<std::string> files_;
  size_t next_file_ = 0;
  std::string current_file_;
  int fd_ = -1;
  bool eof_ = false;
  // Read buffer: bytes [begin_, end_) are read and not yet decoded.
  std::unique_ptr<char[]> buffer_;
  size_t capacity_ = 0, begin_ = 0, end_ = 0;
  int64_t buffer_offset_ = 0;  // file offset of buffer_[0]
  std::unique_ptr<RecordDecoder> decoder_;
  TextRows rows_;
};

}  // namespace eddy
