// The filesystem connector as an append-only sink: each subtask writes one file into the table's
// directory (created if missing). Rows go to `.part-<job id>-<subtask>.inprogress` there; when the
// input ends the file is synced and renamed to `part-<job id>-<subtask>.<csv|json>` (then the
// directory is synced), so a reader sees the whole file or none. A subtask that fails or is
// cancelled before its input ends removes its in-progress file and leaves no final one.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "eddy/v1/plan.pb.h"
#include "worker/connectors/file_format.h"
#include "worker/operators/operator.h"

namespace eddy {

class FilesystemSink : public Operator {
 public:
  // `schema`: the columns written (their names are JSON field names). Checks the directory
  // against `allowed_dirs` (canonical, see common/base/allowed_paths.h).
  static absl::StatusOr<std::unique_ptr<FilesystemSink>> Create(
      const v1::Sink& sink, Schema schema, const std::vector<std::string>& allowed_dirs);
  ~FilesystemSink() override;

  absl::Status Open(const OperatorContext& ctx) override;
  absl::Status Process(int input, const ChangelogBatch& batch) override;
  absl::Status Finish() override;
  absl::Status Close() override;

  const std::string& final_path() const { return final_path_; }
  const std::string& temp_path() const { return temp_path_; }

 private:
  FilesystemSink() = default;
  absl::Status Error(absl::string_view message) const;
  absl::Status Flush();
  void Discard();  // closes and removes the in-progress file

  std::string table_name_;
  std::string dir_;
  FileFormatOptions format_;
  Schema schema_;
  std::vector<std::string> allowed_dirs_;
  std::unique_ptr<RecordEncoder> encoder_;

  std::string temp_path_, final_path_;
  int fd_ = -1;
  bool committed_ = false;
  std::string buffer_;
};

}  // namespace eddy
