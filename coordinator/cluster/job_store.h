// The coordinator's durable record of its jobs (Flink's JobGraphStore and job result store in
// one): each job's spec, written once before the job is reported submitted, and its status,
// rewritten whenever the status or the attempt changes. They live in the RocksDB of the
// coordinator's data directory that also holds the catalog, under keys of their own
// (`j/<job id>/spec`, `j/<job id>/status`), written synchronously. A restarted coordinator loads
// them (JobManager::Recover). Thread-safe (RocksDB is).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "eddy/v1/job_store.pb.h"

namespace rocksdb {
class DB;
}

namespace eddy {

class JobStore {
 public:
  struct StoredJob {
    std::string job_id;
    v1::StoredJobSpec spec;
    v1::StoredJobStatus status;
  };

  // `db` is shared with the catalog store; `path` names it in messages.
  JobStore(std::shared_ptr<rocksdb::DB> db, std::string path)
      : db_(std::move(db)), path_(std::move(path)) {}

  // The spec and the first status together: after a crash both or neither are there.
  absl::Status Add(const std::string& job_id, const v1::StoredJobSpec& spec,
                   const v1::StoredJobStatus& status);
  absl::Status UpdateStatus(const std::string& job_id, const v1::StoredJobStatus& status);
  absl::Status Remove(const std::string& job_id);
  // Every stored job, oldest submission first. A value that does not decode, or a job with one of
  // its two records missing, is an error naming the key.
  absl::StatusOr<std::vector<StoredJob>> Load() const;

  const std::string& path() const { return path_; }

  // The prefix of every key of the job store (other units sharing the database skip it).
  static constexpr char kKeyPrefix[] = "j/";

 private:
  std::shared_ptr<rocksdb::DB> db_;
  std::string path_;
};

}  // namespace eddy
