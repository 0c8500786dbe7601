#include "coordinator/checkpoint/savepoint_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <random>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/base/file_checksum.h"
#include "common/base/status_macros.h"
#include "common/base/sync_directory.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;

std::string RandomHex12() {
  static std::mutex mu;
  static std::mt19937_64 rng(std::random_device{}());
  std::lock_guard<std::mutex> lock(mu);
  return absl::StrFormat("%012x", rng() & 0xffffffffffffULL);
}

// Copies `from` to `to` (created, synced) and checks on the way that the bytes are those the
// checkpoint recorded: a savepoint never carries a damaged file.
absl::Status CopyVerified(const std::string& from, const std::string& to,
                          const v1::StateFile& recorded) {
  const int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) {
    return absl::DataLossError(
        absl::StrCat("cannot read state file '", from, "': ", std::strerror(errno)));
  }
  const int out = ::open(to.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out < 0) {
    const std::string why = std::strerror(errno);
    ::close(in);
    return absl::InternalError(absl::StrCat("cannot create savepoint file '", to, "': ", why));
  }
  absl::Status status;
  uint32_t crc = 0;
  uint64_t size = 0;
  char buffer[1 << 16];
  while (status.ok()) {
    const ssize_t n = ::read(in, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      status = absl::DataLossError(
          absl::StrCat("cannot read state file '", from, "': ", std::strerror(errno)));
      break;
    }
    if (n == 0) break;
    crc = Crc32Update(crc, buffer, static_cast<size_t>(n));
    size += static_cast<uint64_t>(n);
    for (ssize_t done = 0; done < n && status.ok();) {
      const ssize_t w = ::write(out, buffer + done, static_cast<size_t>(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) {
        status = absl::InternalError(
            absl::StrCat("cannot write savepoint file '", to, "': ", std::strerror(errno)));
      } else {
        done += w;
      }
    }
  }
  if (status.ok() && ::fsync(out) != 0) {
    status = absl::InternalError(
        absl::StrCat("cannot sync savepoint file '", to, "': ", std::strerror(errno)));
  }
  ::close(in);
  ::close(out);
  if (!status.ok()) return status;
  if (size != recorded.size() || crc != recorded.crc32()) {
    return absl::DataLossError(absl::StrCat("state file '", from, "' holds ", size,
                                            " bytes that fail the checksum recorded for ",
                                            recorded.size(), " bytes"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::string> LocalDirectoryOf(const std::string& path, const std::string& key) {
  std::string dir = path;
  if (absl::StartsWith(dir, "file://")) dir = dir.substr(7);
  if (dir.find("://") != std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat("Invalid value '", path, "' for '", key,
                                                   "': expected a local or mounted path "
                                                   "(file://...)"));
  }
  if (dir.empty() || dir.front() != '/') {
    return absl::InvalidArgumentError(
        absl::StrCat("Invalid value '", path, "' for '", key, "': expected an absolute path"));
  }
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir;
}

absl::StatusOr<std::string> WriteSavepoint(
    const CheckpointStore& from, const v1::CheckpointMetadata& checkpoint,
    const std::vector<v1::OperatorStateDescriptor>& operators, int max_parallelism,
    const std::string& savepoints_root) {
  const std::string dir = absl::StrCat(savepoints_root, "/savepoint-",
                                       checkpoint.job_id().substr(0, 6), "-", RandomHex12());
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot create the savepoint directory '", dir, "': ", ec.message()));
  }
  auto fail = [&](absl::Status s) {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
    return s;
  };
  std::set<std::string> copied;
  for (const auto& subtask : checkpoint.subtasks()) {
    for (const auto& op : subtask.operators()) {
      for (const v1::StateFile& f : op.files()) {
        if (!CheckpointStore::IsPathInJobDir(f.path())) {
          return fail(absl::DataLossError(absl::StrCat("checkpoint ", checkpoint.checkpoint_id(),
                                                       " names file '", f.path(),
                                                       "' outside its job's directory")));
        }
        if (!copied.insert(f.path()).second) continue;  // shared by several operators
        const fs::path to = fs::path(dir) / f.path();
        fs::create_directories(to.parent_path(), ec);
        if (ec) {
          return fail(absl::InternalError(
              absl::StrCat("cannot create '", to.parent_path().string(), "': ", ec.message())));
        }
        absl::Status s =
            CopyVerified((fs::path(from.job_dir()) / f.path()).string(), to.string(), f);
        if (!s.ok()) return fail(s);
      }
    }
  }
  for (const std::string& f : copied) {
    if (absl::Status s = SyncDirectory((fs::path(dir) / f).parent_path().string()); !s.ok()) {
      return fail(s);
    }
  }
  v1::CheckpointMetadata metadata = checkpoint;
  metadata.set_savepoint(true);
  metadata.set_max_parallelism(max_parallelism);
  metadata.clear_operators();
  for (const auto& d : operators) *metadata.add_operators() = d;
  if (absl::Status s = CheckpointStore::WriteMetadataFile(dir, metadata); !s.ok()) return fail(s);
  return dir;
}

absl::StatusOr<LoadedSavepoint> LoadSavepoint(const std::string& path) {
  ASSIGN_OR_RETURN(std::string dir, LocalDirectoryOf(path, "execution.savepoint.path"));
  if (fs::path(dir).filename() == CheckpointStore::kMetadataName) {
    dir = fs::path(dir).parent_path().string();
  }
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return absl::NotFoundError(absl::StrCat("savepoint '", path, "' does not exist"));
  }
  const std::string metadata_path = absl::StrCat(dir, "/", CheckpointStore::kMetadataName);
  auto metadata = CheckpointStore::ReadMetadataFile(metadata_path, "savepoint metadata");
  if (!metadata.ok()) {
    return absl::Status(metadata.status().code(), absl::StrCat("cannot restore savepoint '", path,
                                                               "': ", metadata.status().message()));
  }
  if (!metadata->savepoint()) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot restore savepoint '", path,
                     "': it is a checkpoint's metadata, not a savepoint's (STOP JOB ... WITH "
                     "SAVEPOINT writes one)"));
  }
  if (absl::Status s = CheckpointStore(dir).VerifyFiles(*metadata); !s.ok()) {
    return absl::DataLossError(
        absl::StrCat("cannot restore savepoint '", path, "': ", s.message()));
  }
  return LoadedSavepoint{dir, *std::move(metadata)};
}

}  // namespace eddy
