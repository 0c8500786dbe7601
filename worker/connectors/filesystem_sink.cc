#include "worker/connectors/filesystem_sink.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <map>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/base/allowed_paths.h"
#include "common/base/status_macros.h"
#include "common/base/sync_directory.h"
#include "common/connectors/filesystem_staging.h"
#include "worker/connectors/filesystem_table.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;

constexpr size_t kFlushBytes = 1 << 20;
constexpr char kNextPart[] = "next-part";
constexpr char kPending[] = "pending";  // pending part names, one per line

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
    const v1::TableSink& sink, Schema schema, const std::vector<std::string>& allowed_dirs) {
  std::unique_ptr<FilesystemSink> s(new FilesystemSink());
  s->table_name_ = sink.table_name();
  const std::map<std::string, std::string> options(sink.options().begin(), sink.options().end());
  auto table = ReadFilesystemTable(sink.table_name(), options, allowed_dirs);
  if (!table.ok()) return s->Error(table.status().message());
  s->policy_ = RollingPolicy::FromOptions(table->options);
  s->format_ = table->options.format;
  s->dir_ = table->path;
  s->commit_at_job_end_ = sink.commit_at_job_end();
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
  dir_ = *canonical;
  job_id_ = ctx.job_id;
  subtask_ = ctx.subtask_index;
  attempt_ = ctx.attempt;
  if (commit_at_job_end_) {
    // Batch mode: the parts are published into this attempt's hidden staging directory, which
    // the coordinator moves into the table when the job finishes (BatchStagingDir).
    dir_ = BatchStagingDir(dir_, job_id_, attempt_);
    fs::create_directories(dir_, ec);
    if (ec) {
      return Error(
          absl::StrCat("cannot create the staging directory '", dir_, "': ", ec.message()));
    }
  }
  checkpointing_ = ctx.checkpointing;
  next_check_ = Clock::now() + policy_.check_interval;
  return absl::OkStatus();
}

std::string FilesystemSink::PartName(int64_t number) const {
  return absl::StrCat("part-", job_id_, "-", subtask_, "-", number, ".",
                      std::string(format_.extension()));
}

absl::Status FilesystemSink::RemoveLeftovers() {
  const std::string prefix = absl::StrCat(".part-", job_id_, "-", subtask_, "-");
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir_, ec)) {
    const std::string name = entry.path().filename().string();
    if (!absl::StartsWith(name, prefix)) continue;
    if (absl::StrContains(name, ".inprogress.") || absl::StrContains(name, ".pending.")) {
      fs::remove(entry.path(), ec);
      if (ec) {
        return Error(absl::StrCat("cannot remove '", entry.path().string(), "': ", ec.message()));
      }
    }
  }
  if (ec) return Error(absl::StrCat("cannot list '", dir_, "': ", ec.message()));
  leftovers_removed_ = true;
  return absl::OkStatus();
}

absl::Status FilesystemSink::RemoveLeftoversOnce() {
  return leftovers_removed_ ? absl::OkStatus() : RemoveLeftovers();
}

absl::Status FilesystemSink::StartPart() {
  part_number_ = next_part_++;
  part_path_ = absl::StrCat(dir_, "/.", PartName(part_number_), ".inprogress.", attempt_);
  fd_ = ::open(part_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    return Error(absl::StrCat("cannot create '", part_path_, "': ", std::strerror(errno)));
  }
  part_bytes_ = 0;
  part_created_ = Clock::now();
  return absl::OkStatus();
}

absl::Status FilesystemSink::Process(int input, const ChangelogBatch& batch) {
  CountIn(batch);
  if (batch.empty()) return absl::OkStatus();
  for (size_t r = 0; r < batch.num_rows(); ++r) {
    if (batch.kind(r) != RowKind::kInsert) {
      // The planner never feeds updates to an append-only sink; a plan that does is a bug.
      return Error(absl::StrCat("the sink is append-only but received a ",
                                std::string(RowKindShortString(batch.kind(r))), " row"));
    }
  }
  RETURN_IF_ERROR(RemoveLeftoversOnce());
  if (fd_ < 0) RETURN_IF_ERROR(StartPart());
  const size_t before = buffer_.size();
  RETURN_IF_ERROR(encoder_->Encode(batch, &buffer_));
  part_bytes_ += static_cast<int64_t>(buffer_.size() - before);
  part_last_write_ = Clock::now();
  if (policy_.ShouldRollOnSize(part_bytes_)) return Roll();
  if (buffer_.size() >= kFlushBytes) return Flush();
  return absl::OkStatus();
}

absl::Status FilesystemSink::OnTick(Clock::time_point now) {
  if (now < next_check_) return absl::OkStatus();
  next_check_ = now + policy_.check_interval;
  if (fd_ >= 0 && policy_.ShouldRollOnTime(part_created_, part_last_write_, now)) return Roll();
  return absl::OkStatus();
}

absl::Status FilesystemSink::Flush() {
  if (buffer_.empty()) return absl::OkStatus();
  absl::Status s = WriteAll(fd_, buffer_.data(), buffer_.size());
  if (!s.ok()) return Error(absl::StrCat("cannot write '", part_path_, "': ", s.message()));
  buffer_.clear();
  return absl::OkStatus();
}

absl::Status FilesystemSink::Roll() {
  if (fd_ < 0) return absl::OkStatus();
  RETURN_IF_ERROR(Flush());
  if (::fsync(fd_) != 0) {
    return Error(absl::StrCat("cannot sync '", part_path_, "': ", std::strerror(errno)));
  }
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    return Error(absl::StrCat("cannot close '", part_path_, "': ", std::strerror(errno)));
  }
  const std::string pending = absl::StrCat(".", PartName(part_number_), ".pending.", attempt_);
  const std::string pending_path = absl::StrCat(dir_, "/", pending);
  if (::rename(part_path_.c_str(), pending_path.c_str()) != 0) {
    return Error(absl::StrCat("cannot rename '", part_path_, "' to '", pending_path,
                              "': ", std::strerror(errno)));
  }
  part_path_.clear();
  rolled_.push_back(pending);
  return absl::OkStatus();
}

absl::Status FilesystemSink::Publish(const std::vector<std::string>& pending_names) {
  if (pending_names.empty()) return absl::OkStatus();
  for (const std::string& pending : pending_names) {
    // ".part-<...>.<ext>.pending.<attempt>" -> "part-<...>.<ext>"
    const std::string final_name = pending.substr(1, pending.rfind(".pending.") - 1);
    const std::string from = absl::StrCat(dir_, "/", pending);
    const std::string to = absl::StrCat(dir_, "/", final_name);
    if (::rename(from.c_str(), to.c_str()) == 0) continue;
    const int error = errno;
    // Published before a failure already (a restore repeats the commit of its checkpoint).
    std::error_code ec;
    if (error == ENOENT && fs::exists(to, ec)) continue;
    return absl::DataLossError(absl::StrCat("filesystem sink for table '", table_name_,
                                            "': cannot publish part '", from, "' as '", to,
                                            "': ", std::strerror(error)));
  }
  // The renames are durable once the directory is synced.
  absl::Status synced = SyncDirectory(dir_);
  if (!synced.ok()) return Error(synced.message());
  return absl::OkStatus();
}

absl::Status FilesystemSink::SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) {
  RETURN_IF_ERROR(RemoveLeftoversOnce());
  RETURN_IF_ERROR(Roll());
  if (!rolled_.empty()) {
    std::vector<std::string>& parts = pending_[checkpoint_id];
    parts.insert(parts.end(), rolled_.begin(), rolled_.end());
    rolled_.clear();
    // The pending names must survive a crash of this machine, since the checkpoint names them.
    absl::Status synced = SyncDirectory(dir_);
    if (!synced.ok()) return Error(synced.message());
  }
  std::vector<std::string> names;
  for (const auto& [id, parts] : pending_) names.insert(names.end(), parts.begin(), parts.end());
  out->PutInt64(kNextPart, next_part_);
  if (!names.empty()) out->Put(kPending, absl::StrJoin(names, "\n"));
  return absl::OkStatus();
}

absl::Status FilesystemSink::NotifyCheckpointComplete(int64_t checkpoint_id) {
  std::vector<std::string> names;
  for (auto it = pending_.begin(); it != pending_.end() && it->first <= checkpoint_id;) {
    names.insert(names.end(), it->second.begin(), it->second.end());
    it = pending_.erase(it);
  }
  return Publish(names);
}

absl::Status FilesystemSink::RestoreState(const OperatorSnapshot& snapshot) {
  ASSIGN_OR_RETURN(std::optional<int64_t> next_part, snapshot.GetInt64(kNextPart));
  if (!next_part || *next_part < 0) return Error("the restored state has no part counter");
  next_part_ = *next_part;
  // The restored checkpoint completed, so its pending parts are published now (again, if the
  // failure came after their first publication).
  if (std::optional<std::string_view> pending = snapshot.Get(kPending)) {
    std::vector<std::string> names = absl::StrSplit(
        absl::string_view(pending->data(), pending->size()), '\n', absl::SkipEmpty());
    for (const std::string& name : names) {
      if (!absl::StartsWith(name, ".part-") || name.find('/') != std::string::npos ||
          !absl::StrContains(name, ".pending.")) {
        return Error(absl::StrCat("the restored state names a part '", name,
                                  "' that this sink does not write"));
      }
    }
    RETURN_IF_ERROR(Publish(names));
  }
  // Anything else of this subtask is from after the checkpoint: never published, removed.
  return RemoveLeftovers();
}

absl::Status FilesystemSink::Finish() {
  RETURN_IF_ERROR(RemoveLeftoversOnce());
  RETURN_IF_ERROR(Roll());
  if (checkpointing_) return absl::OkStatus();  // published by the next checkpoint
  std::vector<std::string> names;
  names.swap(rolled_);
  return Publish(names);
}

void FilesystemSink::Discard() {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
  if (!part_path_.empty()) {
    ::unlink(part_path_.c_str());
    part_path_.clear();
  }
  if (!checkpointing_) {
    // Without checkpoints nothing would ever publish them.
    for (const std::string& name : rolled_) ::unlink(absl::StrCat(dir_, "/", name).c_str());
    rolled_.clear();
  }
}

absl::Status FilesystemSink::Close() {
  Discard();
  buffer_.clear();
  return absl::OkStatus();
}

}  // namespace eddy
