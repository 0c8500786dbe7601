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
#include "common/connectors/partition_path.h"
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
  if (spec.partition_keys_size() > 0) {
    const Schema table_schema = s->file_schema_;
    for (int k : spec.partition_keys()) {
      if (k < 0 || k >= static_cast<int>(table_schema.size())) {
        return s->Error(absl::StrCat("partition column ", k, " out of range"));
      }
      s->partition_keys_.push_back(k);
      s->partition_fields_.push_back(table_schema.fields[k]);
    }
    s->partitions_pruned_ = spec.partitions_pruned();
    s->partition_dirs_.assign(spec.partitions().begin(), spec.partitions().end());
    s->default_partition_name_ = table->options.default_partition_name;
    // The files hold the other columns, in order: table column -> file column.
    std::vector<int> file_column(table_schema.size(), -1);
    Schema file_schema;
    for (size_t c = 0; c < table_schema.size(); ++c) {
      const auto& keys = s->partition_keys_;
      if (std::find(keys.begin(), keys.end(), static_cast<int>(c)) != keys.end()) continue;
      file_column[c] = static_cast<int>(file_schema.size());
      file_schema.fields.push_back(table_schema.fields[c]);
    }
    std::vector<int> decoded;
    for (int c : s->columns_) {
      if (file_column[c] >= 0) {
        s->output_.push_back(static_cast<int>(decoded.size()));
        decoded.push_back(file_column[c]);
      } else {
        const auto& keys = s->partition_keys_;
        s->output_.push_back(
            -1 - static_cast<int>(std::find(keys.begin(), keys.end(), c) - keys.begin()));
      }
    }
    if (decoded.empty()) {  // only partition columns read: decode one to know the rows
      decoded.push_back(0);
    }
    s->file_schema_ = std::move(file_schema);
    s->columns_ = std::move(decoded);
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
  std::vector<int> all_partitions;
  if (fs::is_directory(st)) {
    RETURN_IF_ERROR(ListFiles(&all, &all_partitions));
  } else if (fs::is_regular_file(st) && partition_keys_.empty()) {
    all.push_back(path_);
  } else {
    return Error(absl::StrCat("path '", path_, "' is neither a regular file nor a directory"));
  }
  const int p = std::max(1, ctx.parallelism);
  for (size_t k = 0; k < all.size(); ++k) {
    if (static_cast<int>(k % p) != ctx.subtask_index) continue;
    if (!partition_keys_.empty()) file_partition_.push_back(all_partitions[k]);
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

absl::Status FilesystemSource::ListFiles(std::vector<std::string>* files,
                                         std::vector<int>* partitions) {
  auto list_dir = [&](const std::string& dir, int partition) -> absl::Status {
    std::error_code ec;
    std::vector<std::string> names;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      std::error_code file_ec;
      if (Hidden(name) || !it->is_regular_file(file_ec)) continue;  // follows symlinks
      names.push_back(it->path().string());
    }
    // A pruned partition that is gone since planning has no rows.
    if (ec && !(partition >= 0 && ec == std::errc::no_such_file_or_directory)) {
      return Error(absl::StrCat("cannot list directory '", dir, "': ", ec.message()));
    }
    std::sort(names.begin(), names.end());
    for (std::string& n : names) {
      files->push_back(std::move(n));
      partitions->push_back(partition);
    }
    return absl::OkStatus();
  };
  if (partition_keys_.empty()) return list_dir(path_, -1);
  if (!partitions_pruned_) {
    std::vector<std::string> keys;
    for (const Field& f : partition_fields_) keys.push_back(f.name);
    auto dirs = ListPartitionDirectories(path_, keys);
    if (!dirs.ok()) return Error(dirs.status().message());
    partition_dirs_ = *std::move(dirs);
  }
  for (size_t i = 0; i < partition_dirs_.size(); ++i) {
    RETURN_IF_ERROR(list_dir(absl::StrCat(path_, "/", partition_dirs_[i]), static_cast<int>(i)));
  }
  return absl::OkStatus();
}

absl::Status FilesystemSource::LoadPartitionValues(int index) {
  if (index == loaded_partition_) return absl::OkStatus();
  auto spec = ParsePartitionPath(partition_dirs_[index]);
  if (!spec.ok()) return Error(spec.status().message());
  if (spec->size() != partition_keys_.size()) {
    return Error(absl::StrCat("partition directory '", partition_dirs_[index], "' has ",
                              spec->size(), " levels for ", partition_keys_.size(),
                              " partition columns"));
  }
  partition_values_.clear();
  for (size_t k = 0; k < partition_keys_.size(); ++k) {
    const Field& f = partition_fields_[k];
    auto value = PartitionValue(f.name, (*spec)[k].second, f.type, default_partition_name_);
    if (!value.ok()) {
      return Error(absl::StrCat("partition directory '", partition_dirs_[index],
                                "': ", value.status().message()));
    }
    partition_values_.push_back(*std::move(value));
  }
  loaded_partition_ = index;
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
  if (partition_keys_.empty()) {
    *out = std::move(*batch);
    return SourceState::kData;
  }
  // The decoded columns, and each partition column as its directory's value on every row.
  RETURN_IF_ERROR(LoadPartitionValues(file_partition_[next_file_ - 1]));
  const size_t rows = batch->num_rows();
  std::vector<Column> columns;
  columns.reserve(output_.size());
  for (int o : output_) {
    if (o >= 0) {
      columns.push_back(std::move(batch->mutable_column(static_cast<size_t>(o))));
      continue;
    }
    const size_t k = static_cast<size_t>(-1 - o);
    Column c(partition_fields_[k].type);
    c.Reserve(rows);
    if (partition_values_[k].is_null()) {
      c.AppendNulls(rows);
    } else {
      for (size_t r = 0; r < rows; ++r) c.AppendValue(partition_values_[k]);
    }
    columns.push_back(std::move(c));
  }
  *out = ChangelogBatch(std::move(columns), std::move(batch->mutable_kinds()));
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
