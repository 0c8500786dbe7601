#include "worker/connectors/filesystem_sink.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <map>

#include "absl/strings/str_cat.h"
#include "common/base/sync_directory.h"
#include "common/base/allowed_paths.h"
#include "common/base/status_macros.h"
#include "worker/connectors/filesystem_table.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;

constexpr size_t kFlushBytes = 1 << 20;

absl::Status WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return absl::InternalError(std::strerror(errno));
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<FilesystemSink>> FilesystemSink::Create(
    const v1::Sink& sink, Schema schema, const std::vector<std::string>& allowed_dirs) {
  std::unique_ptr<FilesystemSink> s(new FilesystemSink());
  s->table_name_ = sink.table_name();
  const std::map<std::string, std::string> options(sink.options().begin(), sink.options().end());
  auto table = ReadFilesystemTable(options, allowed_dirs);
  if (!table.ok()) return s->Error(table.status().message());
  s->format_ = table->format;
  s->dir_ = table->path;
  s->allowed_dirs_ = allowed_dirs;
  s->schema_ = std::move(schema);
  s->encoder_ = MakeRecordEncoder(s->format_, s->schema_);
  return s;
}

FilesystemSink::~FilesystemSink() { Discard(); }

absl::Status FilesystemSink::Error(absl::string_view message) const {
  return absl::InvalidArgumentError(
      absl::StrCat("filesystem sink for table '", table_name_, "': ", message));
}

absl::Status FilesystemSink::Open(const OperatorContext& ctx) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec || !fs::is_directory(dir_)) {
    return Error(absl::StrCat("path '", dir_, "' is not a directory and cannot be created",
                              ec ? absl::StrCat(": ", ec.message()) : ""));
  }
  // Again now that it exists: a symlink created meanwhile must not lead out.
  auto canonical = CanonicalFilesystemPath(dir_);
  if (!canonical.ok() || !IsUnderAllowedDir(*canonical, allowed_dirs_)) {
    return Error(
        absl::StrCat("path '", dir_, "' leads outside ", AllowedDirsOf("worker", allowed_dirs_)));
  }
  const std::string name = absl::StrCat("part-", ctx.job_id, "-", ctx.subtask_index);
  temp_path_ = absl::StrCat(*canonical, "/.", name, ".inprogress");
  final_path_ = absl::StrCat(*canonical, "/", name, ".", std::string(format_.extension()));
  fd_ = ::open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    return Error(absl::StrCat("cannot create '", temp_path_, "': ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

absl::Status FilesystemSink::Process(int input, const ChangelogBatch& batch) {
  CountIn(batch);
  for (size_t r = 0; r < batch.num_rows(); ++r) {
    if (batch.kind(r) != RowKind::kInsert) {
      // The planner never feeds updates to an append-only sink; a plan that does is a bug.
      return Error(absl::StrCat("the sink is append-only but received a ",
                                std::string(RowKindShortString(batch.kind(r))), " row"));
    }
  }
  RETURN_IF_ERROR(encoder_->Encode(batch, &buffer_));
  if (buffer_.size() >= kFlushBytes) RETURN_IF_ERROR(Flush());
  return absl::OkStatus();
}

absl::Status FilesystemSink::Flush() {
  if (fd_ < 0) return Error("the sink is not open");
  absl::Status s = WriteAll(fd_, buffer_.data(), buffer_.size());
  if (!s.ok()) return Error(absl::StrCat("cannot write '", temp_path_, "': ", s.message()));
  buffer_.clear();
  return absl::OkStatus();
}

absl::Status FilesystemSink::Finish() {
  RETURN_IF_ERROR(Flush());
  if (::fsync(fd_) != 0) {
    return Error(absl::StrCat("cannot sync '", temp_path_, "': ", std::strerror(errno)));
  }
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    return Error(absl::StrCat("cannot close '", temp_path_, "': ", std::strerror(errno)));
  }
  if (::rename(temp_path_.c_str(), final_path_.c_str()) != 0) {
    return Error(absl::StrCat("cannot rename '", temp_path_, "' to '", final_path_,
                              "': ", std::strerror(errno)));
  }
  committed_ = true;
  // The rename is durable once the directory is synced; the file is published either way.
  (void)SyncDirectory(fs::path(final_path_).parent_path().string());
  return absl::OkStatus();
}

void FilesystemSink::Discard() {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
  if (!committed_ && !temp_path_.empty()) {
    ::unlink(temp_path_.c_str());
    temp_path_.clear();
  }
}

absl::Status FilesystemSink::Close() {
  Discard();
  buffer_.clear();
  return absl::OkStatus();
}

}  // namespace eddy
