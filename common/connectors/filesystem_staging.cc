#include "common/connectors/filesystem_staging.h"

#include <algorithm>
#include <filesystem>
#include <set>
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
  // The staged files, relative to the attempt's directory: parts, and for a partitioned table the
  // partition directories k=v/ holding them and their success files ('_SUCCESS').
  std::vector<fs::path> parts;
  std::set<fs::path> partitions;
  const std::string staged = last >= 0 ? BatchStagingDir(path, job_id, last) : "";
  if (last >= 0) {
    for (fs::recursive_directory_iterator it(staged, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (name.empty() || name[0] == '.') {
        if (it->is_directory()) it.disable_recursion_pending();
        continue;
      }
      if (!it->is_regular_file()) continue;
      const fs::path rel = it->path().lexically_relative(staged);
      parts.push_back(rel);
      if (rel.has_parent_path()) partitions.insert(rel.parent_path());
    }
    if (ec) return CommitError(table, absl::StrCat("listing '", staged, "'"), ec);
  }
  if (overwrite) {
    // The table's files as they were: the visible files of the directory and, for a partitioned
    // table, the files of every partition the job wrote (Flink's dynamic partition overwrite: the
    // partitions it did not write keep theirs).
    std::vector<fs::path> old;
    auto collect = [&](const fs::path& dir, bool markers) {
      if (!fs::is_directory(dir)) return;
      for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && (IsVisible(name) || (markers && name[0] == '_'))) {
          old.push_back(entry.path());
        }
      }
    };
    collect(path, false);
    for (const fs::path& partition : partitions) {
      if (!ec) collect(fs::path(path) / partition, true);
    }
    if (ec) return CommitError(table, absl::StrCat("listing '", path, "'"), ec);
    for (const fs::path& f : old) {
      fs::remove(f, ec);
      if (ec) return CommitError(table, absl::StrCat("removing '", f.string(), "'"), ec);
    }
  }
  // The success files last, as Flink's batch commit writes them after loading the partitions: a
  // reader that sees one finds every part of its partition in place.
  std::stable_partition(parts.begin(), parts.end(), [](const fs::path& part) {
    const std::string name = part.filename().string();
    return name.empty() || name[0] != '_';
  });
  for (const fs::path& part : parts) {
    const fs::path from = fs::path(staged) / part;
    const fs::path to = fs::path(path) / part;
    if (part.has_parent_path()) fs::create_directories(to.parent_path(), ec);
    if (!ec) fs::rename(from, to, ec);
    if (ec) {
      return CommitError(table, absl::StrCat("moving '", from.string(), "' to '", to.string(), "'"),
                         ec);
    }
  }
  for (const fs::path& partition : partitions) {
    if (absl::Status s = SyncDirectory((fs::path(path) / partition).string()); !s.ok()) {
      return absl::DataLossError(
          absl::StrCat("filesystem sink for table '", table, "': ", s.message()));
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
