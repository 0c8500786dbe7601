// Checkpoint statistics of a running two-input job (a join: its subtasks align the barriers of
// both inputs) on real processes: the REST API's checkpoint history field by field against the
// job's own figures, the age of the latest checkpoint growing between checkpoints and starting
// again at each, and the alignment time in the coordinator's and the workers' metrics.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "eddy/v1/rest.pb.h"
#include "tests/integration/observability_test_base.h"
#include "tests/integration/process_cluster.h"
#include "tests/util/eventually.h"

namespace eddy::testing {
namespace {

using ::testing::HasSubstr;

class CheckpointStatisticsTest : public ObservabilityTest {
 protected:
  // Submits the join with checkpoints every `interval`; returns its id.
  std::string SubmitJoin(const std::string& interval) {
    RunResult r =
        Eddy("SET 'execution.checkpointing.interval' = '" + interval +
             "';"
             "SET 'parallelism.default' = '2';"
             "CREATE TEMPORARY TABLE l (id BIGINT) WITH ('connector' = 'datagen', "
             "'rows-per-second' = '200', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
             "'fields.id.end' = '100000000');"
             "CREATE TEMPORARY TABLE r (id BIGINT) WITH ('connector' = 'datagen', "
             "'rows-per-second' = '200', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
             "'fields.id.end' = '100000000');"
             "CREATE TEMPORARY TABLE hole (a BIGINT, b BIGINT) WITH ('connector' = 'blackhole');"
             "INSERT INTO hole SELECT l.id, r.id FROM l JOIN r ON l.id = r.id;");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return JobIdIn(r.err);
  }
};

TEST_F(CheckpointStatisticsTest, TheHistoryListsEachCheckpointOfAJoinWithItsAlignment) {
  ASSERT_NO_FATAL_FAILURE(StartCluster(ClusterOptions{.workers = 2, .slots_per_worker = 3}));
  const std::string job = SubmitJoin("500 ms");
  ASSERT_FALSE(job.empty());
  v1::RestCheckpoints c;
  ASSERT_TRUE(Eventually(
      [&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        c = GetJson<v1::RestCheckpoints>("/jobs/" + job + "/checkpoints");
        return c.completed() >= 3;
      },
      std::chrono::seconds(60)))
      << c.DebugString();
  const auto details = GetJson<v1::RestJobDetails>("/jobs/" + job);
  int subtasks = 0;
  for (const auto& v : details.vertices()) subtasks += v.parallelism();
  ASSERT_GE(details.vertices_size(), 3) << details.DebugString();  // two sources, the join

  // Newest first, ids one apart, every field as the job's.
  ASSERT_GE(c.history_size(), 3) << c.DebugString();
  EXPECT_LE(c.history_size(), 10);  // web.checkpoints.history's default
  const v1::RestCheckpointStats* latest = nullptr;
  for (int i = 0; i < c.history_size(); ++i) {
    const v1::RestCheckpointStats& h = c.history(i);
    SCOPED_TRACE(h.DebugString());
    if (i > 0) {
      EXPECT_EQ(h.id(), c.history(i - 1).id() - 1);
    }
    EXPECT_FALSE(h.is_savepoint());
    EXPECT_EQ(h.attempt(), 1);
    EXPECT_GE(h.trigger_timestamp(), details.start_time());
    EXPECT_EQ(h.num_subtasks(), subtasks);
    if (h.status() == "IN_PROGRESS") {
      EXPECT_EQ(i, 0);  // one at a time (max-concurrent 1): the newest
      EXPECT_LT(h.num_acknowledged_subtasks(), subtasks);
      continue;
    }
    ASSERT_EQ(h.status(), "COMPLETED");
    if (latest == nullptr) latest = &h;
    EXPECT_EQ(h.num_acknowledged_subtasks(), subtasks);
    EXPECT_GE(h.latest_ack_timestamp(), h.trigger_timestamp());
    // Completion follows the last acknowledgement at once (same clock, a few ms apart at most).
    EXPECT_NEAR(static_cast<double>(h.trigger_timestamp() + h.end_to_end_duration()),
                static_cast<double>(h.latest_ack_timestamp()), 1000);
    EXPECT_GT(h.state_size(), 0);  // the join's rows
    EXPECT_GT(h.checkpointed_size(), 0);
    EXPECT_LE(h.checkpointed_size(), h.state_size());
    // Each join subtask reads four channels (two per input): their barriers never all arrive at
    // the same instant.
    EXPECT_GT(h.alignment_duration_ms(), 0);
    EXPECT_LT(h.alignment_duration_ms(), h.end_to_end_duration() + 1);
    EXPECT_EQ(h.failure_message(), "");
    EXPECT_EQ(h.failure_timestamp(), 0);
  }
  ASSERT_NE(latest, nullptr);
  // The summary's latest is the history's newest completed one (unless one more completed
  // between the two reads: then it is newer).
  EXPECT_GE(c.latest_id(), latest->id());
  if (c.latest_id() == latest->id()) {
    EXPECT_EQ(c.latest_size_bytes(), latest->state_size());
    EXPECT_EQ(c.latest_new_bytes(), latest->checkpointed_size());
    EXPECT_EQ(c.latest_alignment_duration_ms(), latest->alignment_duration_ms());
    EXPECT_EQ(c.latest_completion_time(),
              latest->trigger_timestamp() + latest->end_to_end_duration());
  }
  EXPECT_GE(c.latest_age_ms(), 0);
  EXPECT_LT(c.latest_age_ms(), 30000);
  EXPECT_EQ(c.failed(), 0);
  EXPECT_LE(c.in_progress(), 1);

  // The coordinator's metrics: the alignment and age of the latest checkpoint.
  const std::string j = "job_id=\"" + job + "\"";
  const std::string metrics = Get("/metrics").body;
  EXPECT_GT(SampleValue(metrics, "eddy_job_last_checkpoint_alignment_ms", {j}), 0) << metrics;
  EXPECT_GE(SampleValue(metrics, "eddy_job_last_checkpoint_age_ms", {j}), 0) << metrics;
  EXPECT_GE(SampleValue(metrics, "eddy_job_checkpoints_in_progress", {j}), 0) << metrics;
  // The workers': the join's subtasks align (each its own time), the sources' do not.
  std::string workers;
  for (int i = 0; i < 2; ++i) workers += WorkerMetrics(i);
  int aligning = 0, join_vertex = -1;
  for (const auto& v : details.vertices()) {
    if (v.name().find("Join") != std::string::npos) join_vertex = v.id();
  }
  ASSERT_GE(join_vertex, 0) << details.DebugString();
  std::istringstream in(workers);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("eddy_task_checkpoint_alignment_time_ms{", 0) != 0 ||
        line.find(j) == std::string::npos) {
      continue;
    }
    ++aligning;
    EXPECT_THAT(line, HasSubstr("vertex=\"" + std::to_string(join_vertex) + "\"")) << line;
    EXPECT_GT(std::stod(line.substr(line.rfind(' ') + 1)), 0) << line;
  }
  EXPECT_EQ(aligning, 2) << workers;  // the join's two subtasks
}

// The age of the latest checkpoint grows while no checkpoint completes and starts again from
// (near) zero when the next one does.
TEST_F(CheckpointStatisticsTest, TheLatestCheckpointsAgeGrowsAndStartsAgainAtTheNext) {
  ASSERT_NO_FATAL_FAILURE(StartCluster(ClusterOptions{.workers = 2, .slots_per_worker = 3}));
  const std::string job = SubmitJoin("2 s");
  ASSERT_FALSE(job.empty());
  const std::string j = "job_id=\"" + job + "\"";
  struct Reading {
    double id;
    double age;
  };
  std::vector<Reading> readings;
  bool grew = false, restarted = false;
  double first_age_of_id = 0;  // the age of the latest checkpoint at its first reading
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!(grew && restarted) && std::chrono::steady_clock::now() < deadline) {
    const std::string metrics = Get("/metrics").body;
    const double id = SampleValue(metrics, "eddy_job_last_checkpoint_id", {j});
    const double age = SampleValue(metrics, "eddy_job_last_checkpoint_age_ms", {j});
    if (id > 0 && age >= 0) {
      if (!readings.empty()) {
        const Reading& before = readings.back();
        if (id == before.id) {
          EXPECT_GE(age, before.age) << "checkpoint " << id;  // the same one only gets older
          grew = grew || age >= first_age_of_id + 200;
        } else {
          EXPECT_GT(id, before.id);
          // A newer checkpoint: its age starts again, below the one before it had reached.
          EXPECT_LT(age, before.age) << "checkpoint " << id << " after " << before.id;
          restarted = restarted || age < before.age;
        }
      }
      if (readings.empty() || id != readings.back().id) first_age_of_id = age;
      readings.push_back({id, age});
    } else {
      EXPECT_EQ(age, -1) << "an age without a checkpoint";  // none completed yet: no age
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
  }
  EXPECT_TRUE(grew) << readings.size() << " readings";
  EXPECT_TRUE(restarted) << readings.size() << " readings";
}

}  // namespace
}  // namespace eddy::testing
