#include "worker/exchange/exchange_registry.h"

#include "absl/strings/str_cat.h"

namespace eddy {
namespace {

constexpr auto kCancelPollInterval = std::chrono::milliseconds(20);
constexpr size_t kMaxRememberedCancelledJobs = 1024;

}  // namespace

std::string GateKey::ToString() const {
  return absl::StrCat("job ", job_id, " task ", task_index, " subtask ", subtask_index,
                      input_index > 0 ? absl::StrCat(" input ", input_index) : "");
}

ExchangeRegistry::Registration::~Registration() { registry_->Unregister(key_, gate_); }

absl::StatusOr<std::unique_ptr<ExchangeRegistry::Registration>> ExchangeRegistry::Register(
    const GateKey& key, std::shared_ptr<InputGate> gate) {
  const InputGate* raw = gate.get();
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!gates_.emplace(key, std::move(gate)).second) {
      return absl::AlreadyExistsError(
          absl::StrCat("an exchange input gate for ", key.ToString(),
                       " is already registered (one exchange source per task input)"));
    }
    cv_.notify_all();
  }
  return std::unique_ptr<Registration>(new Registration(this, key, raw));
}

void ExchangeRegistry::Unregister(const GateKey& key, const InputGate* gate) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = gates_.find(key);
  if (it != gates_.end() && it->second.get() == gate) gates_.erase(it);
}

absl::StatusOr<std::shared_ptr<InputGate>> ExchangeRegistry::Await(
    const GateKey& key, const std::function<bool()>& cancelled) {
  const auto deadline = std::chrono::steady_clock::now() + wait_timeout_;
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    if (shutdown_) {
      return absl::CancelledError(
          absl::StrCat("exchange to ", key.ToString(), ": the worker is shutting down"));
    }
    if (cancelled_jobs_.count(key.job_id) > 0) {
      return absl::CancelledError(absl::StrCat("exchange to ", key.ToString(), ": job cancelled"));
    }
    auto it = gates_.find(key);
    if (it != gates_.end()) return it->second;
    if (cancelled && cancelled()) {
      return absl::CancelledError(absl::StrCat("exchange to ", key.ToString(), ": cancelled"));
    }
    auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      return absl::NotFoundError(absl::StrCat(
          "no exchange input gate for ", key.ToString(), " was registered on this worker within ",
          wait_timeout_.count(), " ms (is the consumer task deployed here?)"));
    }
    cv_.wait_for(
        lock, std::min<std::chrono::steady_clock::duration>(deadline - now, kCancelPollInterval));
  }
}

void ExchangeRegistry::CancelJob(const std::string& job_id) {
  std::lock_guard<std::mutex> lock(mu_);
  if (cancelled_jobs_.insert(job_id).second) {
    cancelled_order_.push_back(job_id);
    if (cancelled_order_.size() > kMaxRememberedCancelledJobs) {
      cancelled_jobs_.erase(cancelled_order_.front());
      cancelled_order_.pop_front();
    }
  }
  cv_.notify_all();
}

void ExchangeRegistry::Shutdown() {
  std::lock_guard<std::mutex> lock(mu_);
  shutdown_ = true;
  cv_.notify_all();
}

size_t ExchangeRegistry::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return gates_.size();
}

std::vector<std::pair<GateKey, std::shared_ptr<InputGate>>> ExchangeRegistry::Gates() const {
  std::lock_guard<std::mutex> lock(mu_);
  return {gates_.begin(), gates_.end()};
}

}  // namespace eddy
