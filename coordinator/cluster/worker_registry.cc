#include "coordinator/cluster/worker_registry.h"

#include <grpcpp/grpcpp.h>

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "common/base/logging.h"

namespace eddy {

std::string WorkerRegistry::Register(const std::string& address, int slots) {
  std::lock_guard<std::mutex> lock(mu_);
  // A worker that restarts on the same address replaces its old entry.
  for (auto it = workers_.begin(); it != workers_.end(); ++it) {
    if (it->second.address == address) {
      workers_.erase(it);
      break;
    }
  }
  WorkerInfo w;
  w.registration = next_id_++;
  w.id = absl::StrCat("worker-", w.registration);
  w.address = address;
  w.slots = slots;
  w.last_heartbeat = std::chrono::steady_clock::now();
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(256 << 20);
  w.stub = v1::WorkerService::NewStub(
      grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), args));
  std::string id = w.id;
  workers_[id] = std::move(w);
  EDDY_LOG_INFO("worker {} registered at {} with {} slots", id, address, slots);
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
    EDDY_LOG_WARN("worker {} at {} lost: no heartbeat for {} ms", id, address,
                  heartbeat_timeout_.count());
    if (lost_listener_) lost_listener_(id, address);
  }
}

absl::StatusOr<std::vector<std::string>> WorkerRegistry::AllocateSlots(int n) {
  std::lock_guard<std::mutex> lock(mu_);
  int free = 0;
  for (const auto& [id, w] : workers_) free += w.slots - w.used_slots;
  if (free < n) {
    return absl::ResourceExhaustedError(absl::StrCat("not enough slots: need ", n, ", have ", free));
  }
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) {
    WorkerInfo* best = nullptr;
    for (auto& [id, w] : workers_) {
      if (w.used_slots < w.slots && (!best || w.slots - w.used_slots > best->slots - best->used_slots)) {
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
