#include "coordinator/cluster/worker_registry.h"

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <cctype>

#include "absl/strings/str_cat.h"
#include "common/base/logging.h"
#include "common/rpc/message_limits.h"

namespace eddy {

absl::StatusOr<std::string> WorkerRegistry::Register(const std::string& address, int slots,
                                                     const std::string& instance_id) {
  const bool hex =
      !instance_id.empty() && std::all_of(instance_id.begin(), instance_id.end(), [](char c) {
        return std::isxdigit(static_cast<unsigned char>(c)) != 0;
      });
  if (!hex || instance_id.size() < 8 || instance_id.size() > 32) {
    return absl::InvalidArgumentError(
        absl::StrCat("RegisterWorker from ", address, ": instance id '", instance_id,
                     "' is not 8 to 32 hex digits (is the worker older than the coordinator?)"));
  }
  const std::string id = absl::StrCat("worker-", instance_id);
  std::vector<std::pair<std::string, std::string>> replaced;
  {
    std::lock_guard<std::mutex> lock(mu_);
    // A worker that restarted on the same address replaces its old entry; the old process is gone.
    for (auto it = workers_.begin(); it != workers_.end();) {
      if (it->second.address == address && it->first != id) {
        replaced.push_back({it->first, it->second.address});
        it = workers_.erase(it);
      } else {
        ++it;
      }
    }
    auto existing = workers_.find(id);
    if (existing != workers_.end()) {
      // The same process again (its heartbeat was refused for a while): keep its slots in use.
      existing->second.last_heartbeat = std::chrono::steady_clock::now();
      return id;
    }
    WorkerInfo w;
    w.registration = next_registration_++;
    w.id = id;
    w.address = address;
    w.slots = slots;
    w.last_heartbeat = std::chrono::steady_clock::now();
    w.stub = v1::WorkerService::NewStub(grpc::CreateCustomChannel(
        address, grpc::InsecureChannelCredentials(), LimitedChannelArguments()));
    workers_[id] = std::move(w);
  }
  slots_released_.notify_all();
  EDDY_LOG_INFO("worker {} registered at {} with {} slots", id, address, slots);
  for (const auto& [old_id, old_address] : replaced) {
    const std::string why = "a new worker process registered at its address";
    EDDY_LOG_WARN("worker {} at {} lost: {}", old_id, old_address, why);
    if (lost_listener_) lost_listener_(old_id, old_address, why);
  }
  return id;
}

bool WorkerRegistry::Heartbeat(const std::string& worker_id, int running_subtasks) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = workers_.find(worker_id);
  if (it == workers_.end()) return false;
  it->second.last_heartbeat = std::chrono::steady_clock::now();
  it->second.running_subtasks = running_subtasks;
  return true;
}

void WorkerRegistry::CheckHeartbeats() {
  std::vector<std::pair<std::string, std::string>> lost;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto now = std::chrono::steady_clock::now();
    for (auto it = workers_.begin(); it != workers_.end();) {
      if (now - it->second.last_heartbeat > heartbeat_timeout_) {
        lost.push_back({it->first, it->second.address});
        it = workers_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (const auto& [id, address] : lost) {
    const std::string why = absl::StrCat("no heartbeat for ", heartbeat_timeout_.count(), " ms");
    EDDY_LOG_WARN("worker {} at {} lost: {}", id, address, why);
    if (lost_listener_) lost_listener_(id, address, why);
  }
}

void WorkerRegistry::MarkLost(const std::string& worker_id, const std::string& why) {
  std::string address;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = workers_.find(worker_id);
    if (it == workers_.end()) return;
    address = it->second.address;
    workers_.erase(it);
  }
  EDDY_LOG_WARN("worker {} at {} lost: {}", worker_id, address, why);
  if (lost_listener_) lost_listener_(worker_id, address, why);
}

absl::StatusOr<std::vector<std::string>> WorkerRegistry::AllocateSlots(
    int n, std::chrono::milliseconds wait) {
  std::unique_lock<std::mutex> lock(mu_);
  auto count = [&](bool free_only) {
    int slots = 0;
    for (const auto& [id, w] : workers_) slots += w.slots - (free_only ? w.used_slots : 0);
    return slots;
  };
  if (count(false) >= n) slots_released_.wait_for(lock, wait, [&] { return count(true) >= n; });
  if (const int free = count(true); free < n) {
    return absl::ResourceExhaustedError(
        absl::StrCat("not enough slots: need ", n, ", have ", free, " free of ", count(false),
                     count(false) >= n ? absl::StrCat(" after waiting ", wait.count(),
                                                      " ms for running jobs to release theirs")
                                       : ""));
  }
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) {
    WorkerInfo* best = nullptr;
    for (auto& [id, w] : workers_) {
      if (w.used_slots < w.slots &&
          (!best || w.slots - w.used_slots > best->slots - best->used_slots)) {
        best = &w;
      }
    }
    best->used_slots++;
    out.push_back(best->id);
  }
  return out;
}

void WorkerRegistry::ReleaseSlot(const std::string& worker_id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = workers_.find(worker_id);
  if (it != workers_.end() && it->second.used_slots > 0) it->second.used_slots--;
  slots_released_.notify_all();
}

std::shared_ptr<v1::WorkerService::Stub> WorkerRegistry::StubOf(const std::string& worker_id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = workers_.find(worker_id);
  return it == workers_.end() ? nullptr : it->second.stub;
}

std::string WorkerRegistry::AddressOf(const std::string& worker_id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = workers_.find(worker_id);
  return it == workers_.end() ? "" : it->second.address;
}

int WorkerRegistry::TotalSlots() {
  std::lock_guard<std::mutex> lock(mu_);
  int n = 0;
  for (const auto& [id, w] : workers_) n += w.slots;
  return n;
}

int WorkerRegistry::FreeSlots() {
  std::lock_guard<std::mutex> lock(mu_);
  int n = 0;
  for (const auto& [id, w] : workers_) n += w.slots - w.used_slots;
  return n;
}

std::vector<WorkerInfo> WorkerRegistry::Workers() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<WorkerInfo> out;
  for (const auto& [id, w] : workers_) out.push_back(w);
  return out;
}

std::vector<v1::WorkerStatus> WorkerRegistry::Statuses() {
  std::vector<WorkerInfo> workers = Workers();
  std::sort(workers.begin(), workers.end(), [](const WorkerInfo& a, const WorkerInfo& b) {
    return a.registration < b.registration;
  });
  const auto now = std::chrono::steady_clock::now();
  std::vector<v1::WorkerStatus> out;
  for (const WorkerInfo& w : workers) {
    v1::WorkerStatus s;
    s.set_worker_id(w.id);
    s.set_address(w.address);
    s.set_slots(w.slots);
    s.set_free_slots(w.slots - w.used_slots);
    s.set_running_subtasks(w.running_subtasks);
    s.set_last_heartbeat_age_ms(
        std::chrono::duration_cast<std::chrono::milliseconds>(now - w.last_heartbeat).count());
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace eddy
