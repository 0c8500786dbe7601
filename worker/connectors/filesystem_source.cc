#include "worker/connectors/filesystem_source.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>

#include "absl/strings/str_cat.h"
#include "common/base/allowed_paths.h"
#include "common/base/status_macros.h"
#include "common/types/type_proto.h"
#include "worker/connectors/filesystem_table.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;

constexpr size_t kChunkBytes = 1 << 20;

bool Hidden(const std::string& name) { return name.empty() || name[0] == '.' || name[0] == '_'; }

}  // namespace

absl::StatusOr<std::unique_ptr<FilesystemSource>> FilesystemSource::Create(
    const v1::TableSource& spec, const std::vector<std::string>& allowed_dirs) {
  std::unique_ptr<FilesystemSource> s(new FilesystemSource());
  s->table_name_ = spec.table_name();
  const std::map<std::string, std::string> options(spec.options().begin(), spec.options().end());
  auto table = ReadFilesystemTable(spec.table_name(), options, allowed_dirs);
  if (!table.ok()) return s->Error(table.status().message());
  s->format_ = table->options.format;
  s->path_ = table->path;
  s->allowed_dirs_ = allowed_dirs;
  ASSIGN_OR_RETURN(s->file_schema_, SchemaFromProto(spec.table_schema()));
  for (int c : spec.columns()) {
    if (c < 0 || c >= static_cast<int>(s->file_schema_.size())) {
      return s->Error(absl::StrCat("column ", c, " out of range"));
    }
    s->columns_.push_back(c);
  }
  if (s->columns_.empty()) {
    for (size_t c = 0; c < s->file_schema_.size(); ++c) s->columns_.push_back(static_cast<int>(c));
  }
  s->decoder_ = MakeRecordDecoder(s->format_, s->file_schema_, s->columns_);
  s->rows_ = MakeTextRows(s->format_, s->file_schema_, s->columns_);
  return s;
}

FilesystemSource::~FilesystemSource() { CloseFile(); }

absl::Status FilesystemSource::Error(absl::string_view message) const {
  return absl::InvalidArgumentError(
      absl::StrCat("filesystem source for table '", table_name_, "': ", message));
}

absl::Status FilesystemSource::FileError(absl::string_view message) const {
  return Error(absl::StrCat("file '", current_file_, "', ", message));
}

absl::Status FilesystemSource::Open(const OperatorContext& ctx) {
  std::error_code ec;
  const fs::file_status st = fs::status(path_, ec);
  if (ec || !fs::exists(st)) {
    if (ec && ec != std::errc::no_such_file_or_directory) {
      return Error(absl::StrCat("cannot access path '", path_, "': ", ec.message()));
    }
    return Error(absl::StrCat("path '", path_, "' does not exist"));
  }
  std::vector<std::string> all;
  if (fs::is_directory(st)) {
    for (fs::directory_iterator it(path_, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      std::error_code file_ec;
      if (Hidden(name) || !it->is_regular_file(file_ec)) continue;  // follows symlinks
      all.push_back(it->path().string());
    }
    if (ec) return Error(absl::StrCat("cannot list directory '", path_, "': ", ec.message()));
    std::sort(all.begin(), all.end());
  } else if (fs::is_regular_file(st)) {
    all.push_back(path_);
  } else {
    return Error(absl::StrCat("path '", path_, "' is neither a regular file nor a directory"));
  }
  const int p = std::max(1, ctx.parallelism);
  for (size_t k = 0; k < all.size(); ++k) {
    if (static_cast<int>(k % p) != ctx.subtask_index) continue;
    // A symlink in an allowed directory must not lead out of the allowed ones.
    auto canonical = CanonicalFilesystemPath(all[k]);
    if (!canonical.ok() || !IsUnderAllowedDir(*canonical, allowed_dirs_)) {
      return Error(absl::StrCat("file '", all[k], "' leads outside ",
                                AllowedDirsOf("worker", allowed_dirs_)));
    }
    files_.push_back(all[k]);
  }
  return absl::OkStatus();
}

absl::Status FilesystemSource::OpenFile(const std::string& path, int64_t offset, int64_t line) {
  current_file_ = path;
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) return FileError(absl::StrCat("cannot open: ", std::strerror(errno)));
  if (offset > 0 && ::lseek(fd_, offset, SEEK_SET) != offset) {
    return FileError(
        absl::StrCat("cannot seek to the restored offset ", offset, ": ", std::strerror(errno)));
  }
  eof_ = false;
  begin_ = end_ = 0;
  buffer_offset_ = offset;
  if (buffer_ == nullptr) {
    capacity_ = kChunkBytes;
    buffer_.reset(new char[capacity_]);
  }
  if (offset > 0) {
    decoder_->ResumeFile(line);
  } else {
    decoder_->StartFile();
  }
  return absl::OkStatus();
}

void FilesystemSource::CloseFile() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

absl::Status FilesystemSource::ReadMore() {
  if (begin_ > 0) {
    std::memmove(buffer_.get(), buffer_.get() + begin_, end_ - begin_);
    buffer_offset_ += static_cast<int64_t>(begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == capacity_) {  // one record larger than the buffer
    std::unique_ptr<char[]> bigger(new char[capacity_ * 2]);
    std::memcpy(bigger.get(), buffer_.get(), end_);
    buffer_ = std::move(bigger);
    capacity_ *= 2;
  }
  ssize_t n;
  do {
    n = ::read(fd_, buffer_.get() + end_, capacity_ - end_);
  } while (n < 0 && errno == EINTR);
  if (n < 0) return FileError(absl::StrCat("cannot read: ", std::strerror(errno)));
  if (n == 0) eof_ = true;
  end_ += static_cast<size_t>(n);
  return absl::OkStatus();
}

absl::StatusOr<SourceState> FilesystemSource::EmitBatch(ChangelogBatch* out) {
  auto batch = rows_.TakeBatch(format_.ignore_parse_errors());
  if (!batch.ok()) return FileError(batch.status().message());
  rows_out_ += batch->num_rows();
  *out = std::move(*batch);
  return SourceState::kData;
}

absl::StatusOr<SourceState> FilesystemSource::Next(ChangelogBatch* out) {
  while (true) {
    if (fd_ < 0) {
      if (next_file_ >= files_.size()) return SourceState::kEnd;
      RETURN_IF_ERROR(OpenFile(files_[next_file_++]));
    }
    auto consumed = decoder_->Decode(std::string_view(buffer_.get() + begin_, end_ - begin_), eof_,
                                     kDefaultBatchRows, &rows_);
    if (!consumed.ok()) return FileError(consumed.status().message());
    begin_ += *consumed;
    if (rows_.num_rows() >= kDefaultBatchRows) return EmitBatch(out);
    if (eof_) {
      if (begin_ != end_)
        return FileError("internal error: undecoded bytes at the end of the file");
      CloseFile();
      // A batch never spans two files, so its rows' line numbers name one file.
      if (rows_.num_rows() > 0) return EmitBatch(out);
      continue;
    }
    RETURN_IF_ERROR(ReadMore());
  }
}

absl::Status FilesystemSource::Close() {
  CloseFile();
  return absl::OkStatus();
}

absl::Status FilesystemSource::SnapshotState(int64_t, OperatorSnapshot* out) {
  // Between batches every decoded row was emitted, so the position is the next undecoded byte.
  if (fd_ >= 0) {
    out->PutInt64("file", static_cast<int64_t>(next_file_) - 1);
    out->PutInt64("offset", buffer_offset_ + static_cast<int64_t>(begin_));
    out->PutInt64("line", decoder_->next_line());
  } else {
    out->PutInt64("file", static_cast<int64_t>(next_file_));
    out->PutInt64("offset", 0);
    out->PutInt64("line", 1);
  }
  return absl::OkStatus();
}

absl::Status FilesystemSource::RestoreState(const OperatorSnapshot& snapshot) {
  ASSIGN_OR_RETURN(std::optional<int64_t> file, snapshot.GetInt64("file"));
  ASSIGN_OR_RETURN(std::optional<int64_t> offset, snapshot.GetInt64("offset"));
  ASSIGN_OR_RETURN(std::optional<int64_t> line, snapshot.GetInt64("line"));
  if (!file) return absl::OkStatus();
  const int64_t num_files = static_cast<int64_t>(files_.size());
  if (*file < 0 || *file > num_files || offset.value_or(0) < 0 ||
      (*file == num_files && offset.value_or(0) > 0)) {
    return Error(absl::StrCat("restored position (file ", *file, ", offset ", offset.value_or(0),
                              ") does not match the ", files_.size(), " files of this subtask"));
  }
  CloseFile();
  next_file_ = static_cast<size_t>(*file);
  if (offset.value_or(0) > 0) {
    RETURN_IF_ERROR(OpenFile(files_[next_file_++], *offset, line.value_or(1)));
  }
  return absl::OkStatus();
}

}  // namespace eddy
