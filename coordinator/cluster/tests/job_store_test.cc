// JobStore: jobs written with their spec and status come back in submission order after the
// database is reopened, status updates replace the old one, removed jobs stay removed, and a
// damaged or half-written record is an error naming its key.
#include "coordinator/cluster/job_store.h"

#include <gtest/gtest.h>

#include "coordinator/cluster/tests/job_store_db.h"

namespace eddy {
namespace {

using job_store_testing::OpenDb;

std::string FreshDir() { return job_store_testing::FreshDir("eddy_job_store"); }

v1::StoredJobSpec Spec(const std::string& name) {
  v1::StoredJobSpec spec;
  spec.set_name(name);
  spec.add_nodes()->set_description("Sink(" + name + ")");
  (*spec.mutable_config())["execution.checkpointing.interval"] = "1 s";
  spec.set_default_checkpoints_dir("/var/lib/eddy/checkpoints");
  return spec;
}

v1::StoredJobStatus Status(v1::JobStatus status, int64_t start_ms, int attempt) {
  v1::StoredJobStatus s;
  s.mutable_info()->set_status(status);
  s.mutable_info()->set_start_time_ms(start_ms);
  s.mutable_info()->set_attempt(attempt);
  return s;
}

TEST(JobStoreTest, JobsComeBackInSubmissionOrderWithTheirLatestStatus) {
  const std::string path = FreshDir();
  {
    JobStore store(OpenDb(path), path);
    // Ids sort the other way round from the submission times.
    ASSERT_TRUE(store.Add("bbbb", Spec("first"), Status(v1::JOB_STATUS_CREATED, 100, 0)).ok());
    ASSERT_TRUE(store.Add("aaaa", Spec("second"), Status(v1::JOB_STATUS_CREATED, 200, 0)).ok());
    ASSERT_TRUE(store.Add("cccc", Spec("gone"), Status(v1::JOB_STATUS_CREATED, 300, 0)).ok());
    v1::StoredJobStatus running = Status(v1::JOB_STATUS_RUNNING, 100, 2);
    running.set_checkpoint_dir("/var/lib/eddy/checkpoints/bbbb");
    ASSERT_TRUE(store.UpdateStatus("bbbb", running).ok());
    ASSERT_TRUE(store.Remove("cccc").ok());
  }
  JobStore store(OpenDb(path), path);
  auto jobs = store.Load();
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  ASSERT_EQ(jobs->size(), 2u);
  EXPECT_EQ((*jobs)[0].job_id, "bbbb");
  EXPECT_EQ((*jobs)[0].spec.name(), "first");
  EXPECT_EQ((*jobs)[0].spec.nodes(0).description(), "Sink(first)");
  EXPECT_EQ((*jobs)[0].spec.config().at("execution.checkpointing.interval"), "1 s");
  EXPECT_EQ((*jobs)[0].status.info().status(), v1::JOB_STATUS_RUNNING);
  EXPECT_EQ((*jobs)[0].status.info().attempt(), 2);
  EXPECT_EQ((*jobs)[0].status.checkpoint_dir(), "/var/lib/eddy/checkpoints/bbbb");
  EXPECT_EQ((*jobs)[1].job_id, "aaaa");
  EXPECT_EQ((*jobs)[1].status.info().status(), v1::JOB_STATUS_CREATED);
}

TEST(JobStoreTest, KeysOfOthersInTheDatabaseAreNotItsConcern) {
  const std::string path = FreshDir();
  std::shared_ptr<rocksdb::DB> db = OpenDb(path);
  ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "t/catalog\0db\0table", "a table").ok());
  ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "k/after", "something else").ok());
  JobStore store(db, path);
  ASSERT_TRUE(store.Add("abcd", Spec("job"), Status(v1::JOB_STATUS_RUNNING, 1, 1)).ok());
  auto jobs = store.Load();
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  ASSERT_EQ(jobs->size(), 1u);
  EXPECT_EQ((*jobs)[0].job_id, "abcd");
}

TEST(JobStoreTest, ADamagedOrHalfWrittenRecordIsAnErrorNamingIt) {
  const std::string path = FreshDir();
  std::shared_ptr<rocksdb::DB> db = OpenDb(path);
  JobStore store(db, path);
  ASSERT_TRUE(store.Add("abcd", Spec("job"), Status(v1::JOB_STATUS_RUNNING, 1, 1)).ok());
  ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "j/abcd/status", "\xff\xff not a status").ok());
  absl::Status s = store.Load().status();
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(s.message().find("j/abcd/status"), std::string::npos) << s.message();

  ASSERT_TRUE(store.Remove("abcd").ok());
  ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "j/ef01/spec", Spec("x").SerializeAsString()).ok());
  s = store.Load().status();
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(s.message().find("job ef01 has no status"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace eddy
