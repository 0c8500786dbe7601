#include "common/connectors/filesystem_staging.h"

#include <filesystem>
#include <system_error>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/base/sync_directory.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;

std::string StagingRoot(const std::string& path, const std::string& job_id) {
  return absl::StrCat(path, "/.staging-", job_id);
}

// A table file readers see: not hidden ('.') and not a marker ('_').
bool IsVisible(const std::string& name) {
  return !name.empty() && name[0] != '.' && name[0] != '_';
}

absl::Status CommitError(const std::string& table, const std::string& what,
                         const std::error_code& ec) {
  return absl::DataLossError(absl::StrCat("filesystem sink for table '", table,
                                          "': cannot commit the batch output: ", what, ": ",
                                          ec.message()));
}

}  // namespace

std::string BatchStagingDir(const std::string& path, const std::string& job_id, int attempt) {
  return absl::StrCat(StagingRoot(path, job_id), "/attempt-", attempt);
}

absl::Status CommitBatchStaging(const std::string& table, const std::string& path,
                                const std::string& job_id, bool overwrite) {
  const std::string root = StagingRoot(path, job_id);
  std::error_code ec;
  // The finished attempt is the highest one that staged anything; older ones failed.
  int last = -1;
  if (fs::is_directory(root, ec)) {
    for (const auto& entry : fs::directory_iterator(root, ec)) {
      const std::string name = entry.path().filename().string();
      int n = 0;
      if (absl::StartsWith(name, "attempt-") &&
          absl::SimpleAtoi(name.substr(std::string("attempt-").size()), &n) && n > last) {
        last = n;
      }
    }
    if (ec) return CommitError(table, absl::StrCat("listing '", root, "'"), ec);
  }
  std::vector<fs::path> parts;
  if (last >= 0) {
    const std::string staged = BatchStagingDir(path, job_id, last);
    for (const auto& entry : fs::directory_iterator(staged, ec)) {
      if (entry.is_regular_file() && IsVisible(entry.path().filename().string())) {
        parts.push_back(entry.path());
      }
    }
    if (ec) return CommitError(table, absl::StrCat("listing '", staged, "'"), ec);
  }
  if (overwrite) {
    // The table's files as they were: every visible regular file of the directory. (A
    // partition-level overwrite removes only the partition directories the job wrote.)
    std::vector<fs::path> old;
    for (const auto& entry : fs::directory_iterator(path, ec)) {
      if (entry.is_regular_file() && IsVisible(entry.path().filename().string())) {
        old.push_back(entry.path());
      }
    }
    if (ec) return CommitError(table, absl::StrCat("listing '", path, "'"), ec);
    for (const fs::path& f : old) {
      fs::remove(f, ec);
      if (ec) return CommitError(table, absl::StrCat("removing '", f.string(), "'"), ec);
    }
  }
  for (const fs::path& part : parts) {
    const fs::path to = fs::path(path) / part.filename();
    fs::rename(part, to, ec);
    if (ec) {
      return CommitError(table, absl::StrCat("moving '", part.string(), "' to '", to.string(), "'"),
                         ec);
    }
  }
  if (absl::Status s = SyncDirectory(path); !s.ok()) {
    return absl::DataLossError(
        absl::StrCat("filesystem sink for table '", table, "': ", s.message()));
  }
  fs::remove_all(root, ec);  // best effort: the table is complete already
  return absl::OkStatus();
}

void DiscardBatchStaging(const std::string& path, const std::string& job_id) {
  std::error_code ec;
  fs::remove_all(StagingRoot(path, job_id), ec);
}

}  // namespace eddy
