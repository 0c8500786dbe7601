// For tests: real RocksDB state in a fresh temporary directory, deleted with the object. Tests of
// operators and tasks use it so that state goes through the production stores: `get()` is one
// store (an operator's ctx.state), `stores()` a worker's StateStores (a task's environment).
#pragma once

#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "worker/state/keyed_state_backend.h"
#include "worker/state/state_stores.h"

namespace eddy::testing {

class TempStateBackend {
 public:
  // `name` keeps concurrently running test binaries apart; the process id is appended.
  explicit TempStateBackend(const std::string& name, StateBackendOptions options = {})
      : dir_(std::filesystem::temp_directory_path() / (name + "_" + std::to_string(getpid()))) {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
    auto stores = StateStores::Open(dir_ + "/state", std::move(options));
    if (!stores.ok()) {
      status_ = stores.status();
      return;
    }
    stores_ = std::move(*stores);
    auto backend = KeyedStateBackend::Open(dir_ + "/store", stores_->resources());
    if (backend.ok()) {
      backend_ = std::move(*backend);
    } else {
      status_ = backend.status();
    }
  }
  ~TempStateBackend() {
    backend_.reset();
    stores_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  const absl::Status& status() const { return status_; }  // check in SetUp
  KeyedStateBackend* get() const { return backend_.get(); }
  KeyedStateBackend* operator->() const { return backend_.get(); }
  StateStores* stores() const { return stores_.get(); }

 private:
  std::string dir_;
  absl::Status status_;
  std::unique_ptr<StateStores> stores_;
  std::unique_ptr<KeyedStateBackend> backend_;
};

}  // namespace eddy::testing
