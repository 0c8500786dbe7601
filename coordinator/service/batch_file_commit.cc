#include "coordinator/service/batch_file_commit.h"

#include "common/connectors/filesystem_staging.h"

namespace eddy {
namespace {

struct StagedSink {
  std::string table;
  std::string path;
  bool overwrite = false;
};

}  // namespace

std::function<absl::Status(const std::string& job_id, bool finished)> BatchSinkCommitter(
    const std::vector<v1::PlanNode>& nodes) {
  std::vector<StagedSink> sinks;
  for (const v1::PlanNode& n : nodes) {
    if (!n.has_sink() || !n.sink().commit_at_job_end()) continue;
    auto path = n.sink().options().find("path");
    if (path == n.sink().options().end()) continue;  // validated at CREATE TABLE: not reached
    sinks.push_back({n.sink().table_name(), path->second, n.sink().overwrite()});
  }
  if (sinks.empty()) return nullptr;
  return [sinks](const std::string& job_id, bool finished) -> absl::Status {
    absl::Status first;
    for (const StagedSink& s : sinks) {
      if (!finished) {
        DiscardBatchStaging(s.path, job_id);
        continue;
      }
      absl::Status committed = CommitBatchStaging(s.table, s.path, job_id, s.overwrite);
      if (!committed.ok()) {
        DiscardBatchStaging(s.path, job_id);
        if (first.ok()) first = committed;
      }
    }
    return first;
  };
}

}  // namespace eddy
