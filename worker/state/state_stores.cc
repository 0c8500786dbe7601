#include "worker/state/state_stores.h"

#include <filesystem>
#include <set>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"

namespace eddy {
namespace {

// Job ids become directory names: refuse anything that could leave the root.
bool SafePathComponent(const std::string& s) {
  if (s.empty() || s == "." || s == "..") return false;
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<std::unique_ptr<StateStores>> StateStores::Open(std::string root,
                                                               StateBackendOptions options) {
  if (root.empty()) return absl::InvalidArgumentError("state root directory is empty");
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::remove_all(root, ec);
  if (!ec) fs::create_directories(root, ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat("cannot prepare state directory '", root, "': ", ec.message()));
  }
  return std::unique_ptr<StateStores>(
      new StateStores(std::move(root), std::make_shared<SharedStateResources>(std::move(options))));
}

StateStores::~StateStores() {
  std::lock_guard<std::mutex> lock(mu_);
  stores_.clear();
}

std::string StateStores::JobDir(const std::string& job_id) const {
  return (std::filesystem::path(root_) / job_id).string();
}

std::string StateStores::StoreDir(const std::string& job_id, uint32_t state_id, int subtask) const {
  return (std::filesystem::path(JobDir(job_id)) /
          absl::StrCat("state-", state_id, "-subtask-", subtask))
      .string();
}

absl::Status StateStores::CheckKey(const std::string& job_id, uint32_t state_id,
                                   int subtask) const {
  if (!SafePathComponent(job_id)) {
    return absl::InvalidArgumentError(
        absl::StrCat("job id '", job_id, "' cannot name a state directory"));
  }
  if (state_id == 0) return absl::InvalidArgumentError("state id 0 names no state");
  if (subtask < 0) return absl::InvalidArgumentError("negative subtask index");
  return absl::OkStatus();
}

absl::StatusOr<KeyedStateBackend*> StateStores::Acquire(const std::string& job_id,
                                                        uint32_t state_id, int subtask) {
  RETURN_IF_ERROR(CheckKey(job_id, state_id, subtask));
  std::lock_guard<std::mutex> lock(mu_);
  auto& slot = stores_[StoreKey{job_id, state_id, subtask}];
  if (slot == nullptr) {
    auto opened = KeyedStateBackend::Open(StoreDir(job_id, state_id, subtask), resources_);
    if (!opened.ok()) {
      stores_.erase(StoreKey{job_id, state_id, subtask});
      return opened.status();
    }
    slot = std::move(*opened);
  }
  return slot.get();
}

absl::StatusOr<KeyedStateBackend*> StateStores::AcquireFromSnapshot(
    const std::string& job_id, uint32_t state_id, int subtask, const std::string& snapshot_dir) {
  RETURN_IF_ERROR(CheckKey(job_id, state_id, subtask));
  std::lock_guard<std::mutex> lock(mu_);
  const StoreKey key{job_id, state_id, subtask};
  if (stores_.count(key)) {
    return absl::FailedPreconditionError(absl::StrCat("state store of job ", job_id, " state ",
                                                      state_id, " subtask ", subtask,
                                                      " is already open"));
  }
  ASSIGN_OR_RETURN(std::unique_ptr<KeyedStateBackend> store,
                   KeyedStateBackend::OpenFromSnapshot(
                       snapshot_dir, StoreDir(job_id, state_id, subtask), resources_));
  KeyedStateBackend* raw = store.get();
  stores_[key] = std::move(store);
  return raw;
}

absl::Status StateStores::DropJobLocked(const std::string& job_id) {
  for (auto it = stores_.lower_bound(StoreKey{job_id, 0, 0});
       it != stores_.end() && std::get<0>(it->first) == job_id;) {
    it = stores_.erase(it);
  }
  if (!SafePathComponent(job_id)) return absl::OkStatus();  // never had a directory
  std::error_code ec;
  std::filesystem::remove_all(JobDir(job_id), ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat("cannot remove state directory '", JobDir(job_id), "': ", ec.message()));
  }
  return absl::OkStatus();
}

absl::Status StateStores::DropJob(const std::string& job_id) {
  std::lock_guard<std::mutex> lock(mu_);
  return DropJobLocked(job_id);
}

absl::Status StateStores::DropAll() {
  std::lock_guard<std::mutex> lock(mu_);
  std::set<std::string> jobs;
  for (const auto& [key, store] : stores_) jobs.insert(std::get<0>(key));
  // Directories of jobs whose stores were never opened here are left to the next Open.
  absl::Status status;
  for (const std::string& job : jobs) status.Update(DropJobLocked(job));
  return status;
}

size_t StateStores::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stores_.size();
}

}  // namespace eddy
