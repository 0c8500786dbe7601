#include "client/embedded/embedded_cluster.h"

#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"

namespace eddy {

absl::StatusOr<std::unique_ptr<EmbeddedCluster>> EmbeddedCluster::Start(
    const EmbeddedClusterOptions& o) {
  if (o.workers <= 0) return absl::InvalidArgumentError("--workers must be positive");
  if (o.slots <= 0) return absl::InvalidArgumentError("--slots must be positive");
  std::unique_ptr<EmbeddedCluster> c(new EmbeddedCluster());
  if (o.data_dir.empty()) {
    std::string tmpl = (std::filesystem::temp_directory_path() / "eddy-embedded-XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) {
      return absl::InternalError("cannot create a temporary directory for the embedded cluster");
    }
    c->data_dir_ = tmpl;
    c->owns_data_dir_ = true;
  } else {
    c->data_dir_ = o.data_dir;
  }
  CoordinatorOptions co;
  co.bind_host = "127.0.0.1";
  co.port = 0;
  co.data_dir = c->data_dir_ + "/coordinator";
  co.filesystem_allowed_dirs = o.filesystem_allowed_dirs;
  ASSIGN_OR_RETURN(c->coordinator_, CoordinatorServer::Start(co));
  for (int i = 0; i < o.workers; ++i) {
    WorkerOptions wo;
    wo.coordinator_address = c->coordinator_address();
    wo.bind_host = "127.0.0.1";
    wo.advertise_host = "127.0.0.1";
    wo.port = 0;
    wo.slots = o.slots;
    // The workers share this process: the default budget of one process is divided among them.
    wo.managed_memory_bytes = o.managed_memory_bytes.value_or(
        MemoryBudget::DefaultManagedBytes() / static_cast<size_t>(std::max(1, o.workers)));
    wo.state_cache_bytes = o.state_cache_bytes;
    wo.filesystem_allowed_dirs = o.filesystem_allowed_dirs;
    wo.data_dir = absl::StrCat(c->data_dir_, "/worker-", i);
    ASSIGN_OR_RETURN(auto w, WorkerServer::Start(wo));
    c->workers_.push_back(std::move(w));
  }
  // Ready once every worker has registered.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (static_cast<int>(c->coordinator_->registry().Workers().size()) < o.workers) {
    if (std::chrono::steady_clock::now() > deadline) {
      return absl::DeadlineExceededError("embedded workers did not register within 10 s");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return c;
}

EmbeddedCluster::~EmbeddedCluster() { Shutdown(); }

std::string EmbeddedCluster::coordinator_address() const {
  return absl::StrCat("127.0.0.1:", coordinator_->port());
}

void EmbeddedCluster::Shutdown() {
  for (auto& w : workers_) w->Shutdown();
  workers_.clear();
  if (coordinator_) coordinator_->Shutdown();
  coordinator_.reset();
  if (owns_data_dir_) {
    std::error_code ec;
    std::filesystem::remove_all(data_dir_, ec);
    owns_data_dir_ = false;
  }
}

}  // namespace eddy
