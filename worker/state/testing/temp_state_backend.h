// For tests: a real RocksDB state backend in a fresh temporary directory, deleted with the object.
// Tests of operators and tasks use it so that state goes through the production backend.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "worker/state/keyed_state_backend.h"

namespace eddy::testing {

class TempStateBackend {
 public:
  // `name` keeps concurrently running test binaries apart; the process id is appended.
  explicit TempStateBackend(const std::string& name)
      : dir_(std::filesystem::temp_directory_path() / (name + "_" + std::to_string(getpid()))) {
    auto backend = KeyedStateBackend::Open(dir_);
    if (backend.ok()) {
      backend_ = std::move(*backend);
    } else {
      status_ = backend.status();
    }
  }
  ~TempStateBackend() {
    backend_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  const absl::Status& status() const { return status_; }  // check in SetUp
  KeyedStateBackend* get() const { return backend_.get(); }
  KeyedStateBackend* operator->() const { return backend_.get(); }

 private:
  std::string dir_;
  absl::Status status_;
  std::unique_ptr<KeyedStateBackend> backend_;
};

}  // namespace eddy::testing
