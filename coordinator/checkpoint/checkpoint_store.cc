#include "coordinator/checkpoint/checkpoint_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/base/file_checksum.h"
#include "common/base/status_macros.h"
#include "common/base/sync_directory.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;

// _metadata: magic, then the payload's length and CRC-32, then the serialized CheckpointMetadata.
constexpr char kMagic[8] = {'E', 'D', 'D', 'Y', 'C', 'K', 'P', '1'};
constexpr size_t kHeaderSize = sizeof(kMagic) + 8 + 4;
constexpr char kCheckpointPrefix[] = "chk-";

void PutFixed(uint64_t v, int bytes, std::string* out) {
  for (int i = bytes - 1; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
uint64_t GetFixed(const char* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}
uint32_t Crc32(const std::string& data) { return Crc32Update(0, data.data(), data.size()); }

// ResourceExhausted when the file system is full (the checkpoint coordinator does not count such
// a failure against the tolerable ones), Internal otherwise.
absl::Status ErrnoError(const std::string& what, const std::string& path) {
  const std::string message = absl::StrCat(what, " '", path, "': ", std::strerror(errno));
  if (errno == ENOSPC || errno == EDQUOT) return absl::ResourceExhaustedError(message);
  return absl::InternalError(message);
}

// Writes `data` to `path` and makes it durable before returning.
absl::Status WriteDurably(const std::string& path, const std::string& data) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError("cannot create checkpoint file", path);
  size_t written = 0;
  while (written < data.size()) {
    const ssize_t n = ::write(fd, data.data() + written, data.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      absl::Status s = ErrnoError("cannot write checkpoint file", path);
      ::close(fd);
      return s;
    }
    written += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    absl::Status s = ErrnoError("cannot sync checkpoint file", path);
    ::close(fd);
    return s;
  }
  if (::close(fd) != 0) return ErrnoError("cannot close checkpoint file", path);
  return absl::OkStatus();
}

absl::Status RemoveAll(const fs::path& p) {
  std::error_code ec;
  fs::remove_all(p, ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat("cannot delete checkpoint files '", p.string(), "': ", ec.message()));
  }
  return absl::OkStatus();
}

}  // namespace

std::string CheckpointStore::CheckpointDir(int64_t checkpoint_id) const {
  return absl::StrCat(job_dir_, "/", kCheckpointPrefix, checkpoint_id);
}

absl::Status CheckpointStore::Prepare() const {
  std::error_code ec;
  fs::create_directories(fs::path(job_dir_) / "shared", ec);
  if (ec) {
    return absl::FailedPreconditionError(absl::StrCat("the checkpoint directory '", job_dir_,
                                                      "' cannot be created: ", ec.message()));
  }
  // Creating a directory can succeed where writing files does not (a read-only mount, quotas).
  const std::string probe = job_dir_ + "/.write-probe";
  if (absl::Status s = WriteDurably(probe, "probe"); !s.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("the checkpoint directory '", job_dir_, "' is not writable: ", s.message()));
  }
  fs::remove(probe, ec);
  return absl::OkStatus();
}

absl::Status CheckpointStore::WriteMetadata(const v1::CheckpointMetadata& metadata) const {
  return WriteMetadataFile(CheckpointDir(metadata.checkpoint_id()), metadata);
}

absl::Status CheckpointStore::WriteMetadataFile(const std::string& dir,
                                                const v1::CheckpointMetadata& metadata) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat("cannot create checkpoint directory '", dir, "': ", ec.message()));
  }
  std::string payload;
  if (!metadata.SerializeToString(&payload)) {
    return absl::InternalError("cannot serialize the checkpoint metadata");
  }
  std::string file(kMagic, sizeof(kMagic));
  PutFixed(payload.size(), 8, &file);
  PutFixed(Crc32(payload), 4, &file);
  file += payload;
  const std::string final_path = absl::StrCat(dir, "/", kMetadataName);
  const std::string temp_path = final_path + ".inprogress";
  RETURN_IF_ERROR(WriteDurably(temp_path, file));
  if (::rename(temp_path.c_str(), final_path.c_str()) != 0) {
    return ErrnoError("cannot publish checkpoint metadata", final_path);
  }
  return SyncDirectory(dir);
}

absl::StatusOr<v1::CheckpointMetadata> CheckpointStore::ReadMetadata(int64_t checkpoint_id) const {
  const std::string path = absl::StrCat(CheckpointDir(checkpoint_id), "/", kMetadataName);
  ASSIGN_OR_RETURN(v1::CheckpointMetadata metadata, ReadMetadataFile(path, "checkpoint metadata"));
  if (metadata.checkpoint_id() != checkpoint_id) {
    return absl::DataLossError(absl::StrCat("checkpoint metadata '", path,
                                            "' is corrupt: names checkpoint ",
                                            metadata.checkpoint_id()));
  }
  return metadata;
}

absl::StatusOr<v1::CheckpointMetadata> CheckpointStore::ReadMetadataFile(const std::string& path,
                                                                         const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(what, " '", path, "' is missing"));
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string file = buffer.str();
  auto corrupt = [&](const std::string& why) {
    return absl::DataLossError(absl::StrCat(what, " '", path, "' is corrupt: ", why));
  };
  if (file.size() < kHeaderSize) return corrupt("shorter than its header");
  if (!std::equal(kMagic, kMagic + sizeof(kMagic), file.begin())) return corrupt("bad magic");
  const uint64_t length = GetFixed(file.data() + sizeof(kMagic), 8);
  const uint32_t crc = static_cast<uint32_t>(GetFixed(file.data() + sizeof(kMagic) + 8, 4));
  if (file.size() - kHeaderSize != length) {
    return corrupt(absl::StrCat("holds ", file.size() - kHeaderSize,
                                " bytes of metadata, its "
                                "header says ",
                                length));
  }
  const std::string payload = file.substr(kHeaderSize);
  if (Crc32(payload) != crc) return corrupt("checksum mismatch");
  v1::CheckpointMetadata metadata;
  if (!metadata.ParseFromString(payload)) return corrupt("cannot be parsed");
  return metadata;
}

std::vector<int64_t> CheckpointStore::CompletedIds() const {
  std::vector<int64_t> ids;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(job_dir_, ec)) {
    const std::string name = entry.path().filename().string();
    int64_t id = 0;
    if (name.rfind(kCheckpointPrefix, 0) != 0 ||
        !absl::SimpleAtoi(name.substr(sizeof(kCheckpointPrefix) - 1), &id)) {
      continue;
    }
    if (fs::exists(entry.path() / kMetadataName, ec)) ids.push_back(id);
  }
  std::sort(ids.rbegin(), ids.rend());
  return ids;
}

std::optional<v1::CheckpointMetadata> CheckpointStore::LatestValid(
    std::vector<std::string>* skipped) const {
  for (int64_t id : CompletedIds()) {
    auto metadata = ReadMetadata(id);
    absl::Status files = metadata.ok() ? VerifyFiles(*metadata) : metadata.status();
    if (files.ok()) return *std::move(metadata);
    if (skipped != nullptr) skipped->push_back(std::string(files.message()));
  }
  return std::nullopt;
}

absl::Status CheckpointStore::VerifyFiles(const v1::CheckpointMetadata& metadata) const {
  for (const auto& subtask : metadata.subtasks()) {
    for (const auto& op : subtask.operators()) {
      for (const auto& f : op.files()) {
        const std::string path = (fs::path(job_dir_) / f.path()).string();
        auto corrupt = [&](const std::string& why) {
          return absl::DataLossError(absl::StrCat("state file '", path, "' of checkpoint ",
                                                  metadata.checkpoint_id(), " ", why));
        };
        if (!IsPathInJobDir(f.path())) return corrupt("is outside the job's directory");
        absl::StatusOr<FileChecksum> sum = ChecksumFile(path);
        if (!sum.ok()) return corrupt(absl::StrCat("cannot be read: ", sum.status().message()));
        if (sum->size != f.size()) {
          return corrupt(
              absl::StrCat("holds ", sum->size, " bytes, the checkpoint recorded ", f.size()));
        }
        if (sum->crc32 != f.crc32()) return corrupt("fails its checksum");
      }
    }
  }
  return absl::OkStatus();
}

bool CheckpointStore::IsPathInJobDir(const std::string& path) {
  if (path.empty() || path.front() == '/') return false;
  for (const auto& part : fs::path(path)) {
    if (part == ".." || part == ".") return false;
  }
  return true;
}

std::set<std::string> CheckpointStore::ReferencedFiles(const v1::CheckpointMetadata& metadata) {
  std::set<std::string> files;
  for (const auto& subtask : metadata.subtasks()) {
    for (const auto& op : subtask.operators()) {
      for (const auto& f : op.files()) files.insert(f.path());
    }
  }
  return files;
}

absl::Status CheckpointStore::DeleteUnreferenced(const std::set<std::string>& candidates,
                                                 const std::set<std::string>& in_use) const {
  std::set<std::string> referenced = in_use;
  for (int64_t id : CompletedIds()) {
    auto metadata = ReadMetadata(id);
    // A retained checkpoint that cannot be read protects nothing we can name, so delete nothing:
    // its files may be what makes it restorable once the metadata is repaired.
    if (!metadata.ok()) return absl::OkStatus();
    std::set<std::string> files = ReferencedFiles(*metadata);
    referenced.insert(files.begin(), files.end());
  }
  for (const std::string& file : candidates) {
    if (referenced.count(file) > 0 || !IsPathInJobDir(file)) continue;
    RETURN_IF_ERROR(RemoveAll(fs::path(job_dir_) / file));
  }
  return absl::OkStatus();
}

absl::Status CheckpointStore::Retain(int retain, const std::set<std::string>& in_use) const {
  const std::vector<int64_t> ids = CompletedIds();
  std::set<std::string> candidates;
  for (size_t i = std::max(0, retain); i < ids.size(); ++i) {
    if (auto metadata = ReadMetadata(ids[i]); metadata.ok()) {
      std::set<std::string> files = ReferencedFiles(*metadata);
      candidates.insert(files.begin(), files.end());
    }
    RETURN_IF_ERROR(RemoveAll(CheckpointDir(ids[i])));
  }
  return DeleteUnreferenced(candidates, in_use);
}

absl::Status CheckpointStore::Discard(int64_t checkpoint_id, const std::set<std::string>& written,
                                      const std::set<std::string>& in_use) const {
  RETURN_IF_ERROR(RemoveAll(CheckpointDir(checkpoint_id)));
  return DeleteUnreferenced(written, in_use);
}

std::vector<std::string> CheckpointStore::MissingFiles(
    const v1::CheckpointMetadata& metadata) const {
  std::vector<std::string> missing;
  std::error_code ec;
  for (const std::string& file : ReferencedFiles(metadata)) {
    if (!fs::exists(fs::path(job_dir_) / file, ec)) missing.push_back(file);
  }
  return missing;
}

absl::Status CheckpointStore::DeleteAll() const { return RemoveAll(job_dir_); }

}  // namespace eddy
