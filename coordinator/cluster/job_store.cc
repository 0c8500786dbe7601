#include "coordinator/cluster/job_store.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/write_batch.h"

namespace eddy {
namespace {

constexpr char kSpecSuffix[] = "/spec";
constexpr char kStatusSuffix[] = "/status";

std::string SpecKey(const std::string& job_id) {
  return absl::StrCat(JobStore::kKeyPrefix, job_id, kSpecSuffix);
}
std::string StatusKey(const std::string& job_id) {
  return absl::StrCat(JobStore::kKeyPrefix, job_id, kStatusSuffix);
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

absl::Status JobStore::Add(const std::string& job_id, const v1::StoredJobSpec& spec,
                           const v1::StoredJobStatus& status) {
  rocksdb::WriteBatch batch;
  rocksdb::Status s = batch.Put(SpecKey(job_id), spec.SerializeAsString());
  if (s.ok()) s = batch.Put(StatusKey(job_id), status.SerializeAsString());
  rocksdb::WriteOptions wo;
  wo.sync = true;
  if (s.ok()) s = db_->Write(wo, &batch);
  if (s.ok()) return absl::OkStatus();
  return absl::InternalError(
      absl::StrCat("job store (", path_, "): cannot store job ", job_id, ": ", s.ToString()));
}

absl::Status JobStore::UpdateStatus(const std::string& job_id, const v1::StoredJobStatus& status) {
  rocksdb::WriteOptions wo;
  wo.sync = true;
  rocksdb::Status s = db_->Put(wo, StatusKey(job_id), status.SerializeAsString());
  if (s.ok()) return absl::OkStatus();
  return absl::InternalError(absl::StrCat(
      "job store (", path_, "): cannot store the status of job ", job_id, ": ", s.ToString()));
}

absl::Status JobStore::Remove(const std::string& job_id) {
  rocksdb::WriteBatch batch;
  rocksdb::Status s = batch.Delete(SpecKey(job_id));
  if (s.ok()) s = batch.Delete(StatusKey(job_id));
  rocksdb::WriteOptions wo;
  wo.sync = true;
  if (s.ok()) s = db_->Write(wo, &batch);
  if (s.ok()) return absl::OkStatus();
  return absl::InternalError(
      absl::StrCat("job store (", path_, "): cannot remove job ", job_id, ": ", s.ToString()));
}

absl::StatusOr<std::vector<JobStore::StoredJob>> JobStore::Load() const {
  std::map<std::string, StoredJob> by_id;
  std::map<std::string, std::pair<bool, bool>> seen;  // job id -> (spec, status)
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
  const std::string prefix = kKeyPrefix;
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    const std::string key = it->key().ToString();
    auto bad = [&](const std::string& why) {
      return absl::DataLossError(absl::StrCat("job store ", path_, ": entry '", key, "' ", why));
    };
    const bool is_spec = EndsWith(key, kSpecSuffix);
    const bool is_status = EndsWith(key, kStatusSuffix);
    if (!is_spec && !is_status) return bad("has an unknown kind");
    const size_t suffix = is_spec ? sizeof(kSpecSuffix) - 1 : sizeof(kStatusSuffix) - 1;
    const std::string job_id = key.substr(prefix.size(), key.size() - prefix.size() - suffix);
    StoredJob& job = by_id[job_id];
    job.job_id = job_id;
    const rocksdb::Slice value = it->value();
    if (is_spec) {
      if (!job.spec.ParseFromArray(value.data(), static_cast<int>(value.size()))) {
        return bad("does not decode as a job spec");
      }
      seen[job_id].first = true;
    } else {
      if (!job.status.ParseFromArray(value.data(), static_cast<int>(value.size()))) {
        return bad("does not decode as a job status");
      }
      seen[job_id].second = true;
    }
  }
  if (!it->status().ok()) {
    return absl::InternalError(
        absl::StrCat("job store ", path_, ": cannot read: ", it->status().ToString()));
  }
  std::vector<StoredJob> out;
  for (auto& [id, job] : by_id) {
    if (!seen[id].first || !seen[id].second) {
      return absl::DataLossError(absl::StrCat("job store ", path_, ": job ", id, " has no ",
                                              seen[id].first ? "status" : "spec"));
    }
    out.push_back(std::move(job));
  }
  std::stable_sort(out.begin(), out.end(), [](const StoredJob& a, const StoredJob& b) {
    return a.status.info().start_time_ms() < b.status.info().start_time_ms();
  });
  return out;
}

}  // namespace eddy
