// JobManager::Recover on a job store written by an earlier coordinator, with no worker registered:
// finished jobs are listed again, unfinished INSERT jobs wait to be deployed as their next attempt
// (a worker still running an earlier attempt is told to cancel it), a running SELECT fails, a job
// whose spec cannot be made again fails naming why, and finished jobs beyond the retention are
// pruned from the list and the store.
#include <gtest/gtest.h>

#include "coordinator/cluster/job_manager.h"
#include "coordinator/cluster/job_store.h"
#include "coordinator/cluster/tests/job_store_db.h"

namespace eddy {
namespace {

using std::chrono::milliseconds;

using job_store_testing::OpenDb;

std::string FreshDir() { return job_store_testing::FreshDir("eddy_job_recovery"); }

int64_t NowMs() {
  return std::chrono::duration_cast<milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void Put(JobStore& store, const std::string& id, const std::string& name, bool query,
         v1::JobStatus status, int attempt, int64_t start_ms, int64_t end_ms = 0) {
  v1::StoredJobSpec spec;
  spec.set_name(name);
  spec.set_query(query);
  v1::StoredJobStatus s;
  s.mutable_info()->set_job_id(id);
  s.mutable_info()->set_name(name);
  s.mutable_info()->set_status(status);
  s.mutable_info()->set_attempt(attempt);
  s.mutable_info()->set_start_time_ms(start_ms);
  s.mutable_info()->set_end_time_ms(end_ms);
  ASSERT_TRUE(store.Add(id, spec, s).ok());
}

// Specs whose deployments are never built here (no worker ever registers); "broken" cannot be
// made again.
absl::StatusOr<JobManager::JobSpec> TestSpec(const v1::StoredJobSpec& stored) {
  if (stored.name() == "broken") {
    return absl::InvalidArgumentError("Validation error: table 'gone' not found");
  }
  JobManager::JobSpec spec;
  spec.name = stored.name();
  spec.collects_results = stored.query();
  spec.build =
      [](const std::string&, const std::vector<std::string>&,
         const std::vector<std::string>&) -> absl::StatusOr<std::vector<v1::TaskDeployment>> {
    return absl::InternalError("not deployed in this test");
  };
  spec.stored = stored;
  return spec;
}

std::map<std::string, v1::JobInfo> ById(const std::vector<v1::JobInfo>& jobs) {
  std::map<std::string, v1::JobInfo> out;
  for (const auto& j : jobs) out[j.job_id()] = j;
  return out;
}

TEST(JobRecoveryTest, StoredJobsComeBackAndUnfinishedOnesWaitForTheirNextAttempt) {
  const std::string path = FreshDir();
  JobStore store(OpenDb(path), path);
  const int64_t t = NowMs() - 60000;
  Put(store, "f1", "finished", false, v1::JOB_STATUS_FINISHED, 1, t, t + 1000);
  Put(store, "r3", "running", false, v1::JOB_STATUS_RUNNING, 3, t + 1);
  Put(store, "c0", "created", false, v1::JOB_STATUS_CREATED, 0, t + 2);
  Put(store, "q1", "query", true, v1::JOB_STATUS_RUNNING, 1, t + 3);
  Put(store, "b2", "broken", false, v1::JOB_STATUS_RESTARTING, 2, t + 4);

  WorkerRegistry registry(milliseconds(10000));
  JobManager jobs(&registry, &store);
  ASSERT_TRUE(jobs.Recover(TestSpec).ok());
  std::vector<v1::JobInfo> list = jobs.List();
  ASSERT_EQ(list.size(), 5u);
  EXPECT_EQ(list[0].job_id(), "f1");  // submission order
  EXPECT_EQ(list[4].job_id(), "b2");
  auto by_id = ById(list);
  EXPECT_EQ(by_id["f1"].status(), v1::JOB_STATUS_FINISHED);
  EXPECT_EQ(by_id["r3"].status(), v1::JOB_STATUS_RESTARTING);
  EXPECT_EQ(by_id["r3"].attempt(), 3);  // the next deployment is attempt 4
  EXPECT_EQ(by_id["r3"].last_failure(), "the coordinator restarted");
  EXPECT_EQ(by_id["c0"].status(), v1::JOB_STATUS_RESTARTING);
  EXPECT_EQ(by_id["q1"].status(), v1::JOB_STATUS_FAILED);
  EXPECT_NE(by_id["q1"].error().find("the coordinator restarted while the query ran"),
            std::string::npos)
      << by_id["q1"].error();
  // Its client, fetching again, is told why the rows stopped.
  v1::FetchResultsResponse fetched;
  absl::Status fetch = jobs.FetchResults("q1", 0, &fetched);
  EXPECT_EQ(fetch.code(), absl::StatusCode::kAborted);
  EXPECT_NE(fetch.message().find("the coordinator restarted while the query ran"),
            std::string::npos)
      << fetch.message();
  EXPECT_EQ(by_id["b2"].status(), v1::JOB_STATUS_FAILED);
  EXPECT_NE(by_id["b2"].error().find("cannot be deployed again after a coordinator restart: "
                                     "Validation error: table 'gone' not found"),
            std::string::npos)
      << by_id["b2"].error();

  // A worker still runs attempt 3 of r3 and a job nobody knows: both must stop; attempt 3 only
  // up to itself, so that attempt 4 is never hit by it.
  v1::HeartbeatRequest heartbeat;
  heartbeat.set_worker_id("worker-0123456789abcdef");
  v1::TaskMetrics* old = heartbeat.add_running();
  old->set_job_id("r3");
  old->set_attempt(3);
  v1::TaskMetrics* unknown = heartbeat.add_running();
  unknown->set_job_id("ffff");
  unknown->set_attempt(1);
  std::map<std::string, int> cancels;
  for (const auto& c : jobs.OnHeartbeat(heartbeat)) cancels[c.job_id()] = c.up_to_attempt();
  EXPECT_EQ(cancels, (std::map<std::string, int>{{"r3", 3}, {"ffff", 0}}));

  // The store says what the coordinator now knows, and a cancel is written through.
  ASSERT_TRUE(jobs.Cancel("r3").ok());
  auto stored = store.Load();
  ASSERT_TRUE(stored.ok()) << stored.status();
  std::map<std::string, v1::JobStatus> statuses;
  for (const auto& s : *stored) statuses[s.job_id] = s.status.info().status();
  EXPECT_EQ(statuses["r3"], v1::JOB_STATUS_CANCELED);
  EXPECT_EQ(statuses["c0"], v1::JOB_STATUS_RESTARTING);
  EXPECT_EQ(statuses["q1"], v1::JOB_STATUS_FAILED);
}

TEST(JobRecoveryTest, FinishedJobsBeyondTheRetentionArePruned) {
  const std::string path = FreshDir();
  JobStore store(OpenDb(path), path);
  const int64_t now = NowMs();
  // Ended two hours ago, one hour ago less a minute, then three more recently.
  Put(store, "old", "old", false, v1::JOB_STATUS_FAILED, 1, now - 3 * 3600000, now - 2 * 3600000);
  Put(store, "e1", "e1", false, v1::JOB_STATUS_FINISHED, 1, now - 3600000, now - 3540000);
  Put(store, "e2", "e2", false, v1::JOB_STATUS_CANCELED, 1, now - 50000, now - 40000);
  Put(store, "e3", "e3", false, v1::JOB_STATUS_FINISHED, 1, now - 30000, now - 20000);
  Put(store, "run", "run", false, v1::JOB_STATUS_RUNNING, 1, now - 10000);

  WorkerRegistry registry(milliseconds(10000));
  JobManager jobs(&registry, &store,
                  JobRetention{.expiration = std::chrono::hours(1), .max_capacity = 2});
  ASSERT_TRUE(jobs.Recover(TestSpec).ok());
  // "old" expired; of the other three finished ones the two that ended last are kept; a job
  // that has not ended is never pruned.
  std::vector<std::string> ids;
  for (const auto& j : jobs.List()) ids.push_back(j.job_id());
  EXPECT_EQ(ids, (std::vector<std::string>{"e2", "e3", "run"}));
  auto stored = store.Load();
  ASSERT_TRUE(stored.ok()) << stored.status();
  ids.clear();
  for (const auto& s : *stored) ids.push_back(s.job_id);
  EXPECT_EQ(ids, (std::vector<std::string>{"e2", "e3", "run"}));
}

TEST(JobRecoveryTest, ASubmissionThatCannotBeDeployedLeavesNothingInTheStore) {
  const std::string path = FreshDir();
  JobStore store(OpenDb(path), path);
  WorkerRegistry registry(milliseconds(10000));
  JobManager jobs(&registry, &store);
  v1::StoredJobSpec stored;
  stored.set_name("no slots");
  auto spec = TestSpec(stored);
  ASSERT_TRUE(spec.ok());
  EXPECT_FALSE(jobs.Submit(*std::move(spec)).ok());  // no worker: no slot
  EXPECT_TRUE(jobs.List().empty());
  auto loaded = store.Load();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_TRUE(loaded->empty());
}

}  // namespace
}  // namespace eddy
