// What the job store tests share: a fresh scratch directory per call and a RocksDB opened in it,
// as the coordinator's catalog database would be.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <string>

#include "rocksdb/db.h"
#include "rocksdb/options.h"

namespace eddy::job_store_testing {

// An empty directory named after `prefix`, new for every call.
inline std::string FreshDir(const std::string& prefix) {
  static std::atomic<int> n{0};
  std::string dir = testing::TempDir() + "/" + prefix + "_" + std::to_string(getpid()) + "_" +
                    std::to_string(n++);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// The database at `path`, created if missing and closed when the last owner lets go.
inline std::shared_ptr<rocksdb::DB> OpenDb(const std::string& path) {
  rocksdb::Options o;
  o.create_if_missing = true;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(o, path, &raw);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return std::shared_ptr<rocksdb::DB>(raw, [](rocksdb::DB* d) {
    if (d == nullptr) return;
    d->Close().PermitUncheckedError();
    delete d;
  });
}

}  // namespace eddy::job_store_testing
