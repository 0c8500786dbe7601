// The monitoring endpoints of real processes: the coordinator's REST API and /metrics and each
// worker's /metrics, checked field by field against a job with known row counts, back-pressure
// and exhausted output credit shown while a sink is blocked (its worker prints into a pipe nobody
// reads), and a keyed aggregate's state cache lookups and rates against its known input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "common/http/http_client.h"
#include "common/http/http_server.h"
#include "eddy/v1/rest.pb.h"
#include "google/protobuf/util/json_util.h"
#include "tests/integration/cluster_test.h"
#include "tests/integration/observability_test_base.h"
#include "tests/integration/process_cluster.h"
#include "tests/util/eventually.h"

namespace eddy::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

TEST_F(ObservabilityTest, AFinishedJobsCountsAreExactInTheRestApiAndMetrics) {
  ASSERT_NO_FATAL_FAILURE(StartCluster(ClusterOptions{.workers = 2, .slots_per_worker = 2}));
  ASSERT_GT(cluster_->CoordinatorRestPort(), 0) << cluster_->CoordinatorLog();
  RunResult r = Eddy(
      "SET 'table.dml-sync' = 'true';"
      "SET 'parallelism.default' = '2';"
      "CREATE TEMPORARY TABLE ids (id BIGINT) WITH ('connector' = 'datagen', "
      "'number-of-rows' = '10000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
      "'fields.id.end' = '10000');"
      "CREATE TEMPORARY TABLE hole (k BIGINT, c BIGINT) WITH ('connector' = 'blackhole');"
      "INSERT INTO hole SELECT id % 10, COUNT(*) FROM ids GROUP BY id % 10;");
  ASSERT_EQ(r.exit_code, 0) << r.err;

  const auto overview = GetJson<v1::RestOverview>("/overview");
  EXPECT_EQ(overview.workers(), 2);
  EXPECT_EQ(overview.slots_total(), 4);
  EXPECT_EQ(overview.slots_available(), 4);
  EXPECT_EQ(overview.jobs_finished(), 1);
  EXPECT_EQ(overview.jobs_running(), 0);
  EXPECT_EQ(overview.jobs_failed(), 0);
  EXPECT_EQ(overview.jobs_cancelled(), 0);

  const auto jobs = GetJson<v1::RestJobList>("/jobs");
  ASSERT_EQ(jobs.jobs_size(), 1);
  const std::string job = jobs.jobs(0).jid();  // table.dml-sync does not print it, as Flink
  ASSERT_FALSE(job.empty());
  EXPECT_EQ(jobs.jobs(0).state(), "FINISHED");
  EXPECT_EQ(jobs.jobs(0).restarts(), 0);
  EXPECT_GT(jobs.jobs(0).start_time(), 0);
  EXPECT_GE(jobs.jobs(0).end_time(), jobs.jobs(0).start_time());
  EXPECT_EQ(jobs.jobs(0).duration(), jobs.jobs(0).end_time() - jobs.jobs(0).start_time());

  const auto details = GetJson<v1::RestJobDetails>("/jobs/" + job);
  EXPECT_EQ(details.jid(), job);
  EXPECT_EQ(details.state(), "FINISHED");
  EXPECT_EQ(details.attempt(), 1);
  EXPECT_EQ(details.error(), "");
  ASSERT_EQ(details.vertices_size(), 2) << details.DebugString();
  const v1::RestVertex& scan = details.vertices(0);
  EXPECT_EQ(scan.id(), 0);
  EXPECT_THAT(scan.name(), StartsWith("TableSourceScan(table=[[default_catalog, default_database, "
                                      "ids]]"));
  EXPECT_EQ(scan.parallelism(), 2);
  EXPECT_EQ(scan.inputs_size(), 0);
  EXPECT_EQ(scan.records_in(), 10000);
  EXPECT_EQ(scan.records_out(), 10000);
  const v1::RestVertex& agg = details.vertices(1);
  EXPECT_EQ(agg.id(), 1);
  EXPECT_THAT(agg.name(), HasSubstr("GroupAggregate"));
  EXPECT_THAT(agg.name(), HasSubstr("Sink(table=[default_catalog.default_database.hole]"));
  EXPECT_EQ(agg.parallelism(), 2);
  ASSERT_EQ(agg.inputs_size(), 1);
  EXPECT_EQ(agg.inputs(0), 0);
  EXPECT_EQ(agg.ship_strategies(0), "HASH");
  EXPECT_EQ(agg.records_in(), 10000);
  EXPECT_EQ(agg.records_out(), 0);  // nothing leaves the sink's vertex by an exchange
  // The final reports carry each subtask's time: 2 subtasks of each vertex, from start to end.
  for (const auto& v : details.vertices()) {
    EXPECT_GT(v.busy_ms() + v.idle_ms() + v.back_pressured_ms(), 0) << v.DebugString();
    EXPECT_FALSE(v.has_input_watermark_ms()) << v.DebugString();  // no event time here
  }
  std::map<std::string, v1::OperatorMetrics> by_kind;
  for (const auto& v : details.vertices()) {
    for (const auto& m : v.operators()) by_kind[m.description().substr(0, 9)] = m;
  }
  EXPECT_EQ(by_kind["GroupAggr"].rows_in(), 10000);
  EXPECT_EQ(by_kind["GroupAggr"].rows_out(), 10000);
  EXPECT_EQ(by_kind["GroupAggr"].subtasks(), 2);
  EXPECT_EQ(by_kind["Sink(tabl"].rows_in(), 10000);

  const auto plan = GetJson<v1::RestJobPlan>("/jobs/" + job + "/plan");
  EXPECT_EQ(plan.jid(), job);
  EXPECT_TRUE(plan.bounded());
  EXPECT_EQ(plan.config().at("parallelism.default"), "2");
  ASSERT_EQ(plan.vertices_size(), 2);
  EXPECT_EQ(plan.vertices(1).name(), agg.name());
  EXPECT_EQ(plan.vertices(1).records_in(), 0);  // the plan carries no metrics
  int aggregates = 0;
  for (const auto& n : plan.nodes()) {
    if (n.description().rfind("GroupAggregate", 0) == 0) {
      ++aggregates;
      EXPECT_EQ(n.vertex(), 1);
      EXPECT_EQ(n.inputs_size(), 1);
    }
  }
  EXPECT_EQ(aggregates, 1) << plan.DebugString();

  const auto checkpoints = GetJson<v1::RestCheckpoints>("/jobs/" + job + "/checkpoints");
  EXPECT_EQ(checkpoints.completed(), 0);
  EXPECT_EQ(checkpoints.failed(), 0);
  EXPECT_EQ(checkpoints.latest_id(), 0);
  const auto exceptions = GetJson<v1::RestExceptions>("/jobs/" + job + "/exceptions");
  EXPECT_EQ(exceptions.root_exception(), "");
  EXPECT_EQ(exceptions.restarts(), 0);

  const auto workers = GetJson<v1::RestWorkers>("/workers");
  ASSERT_EQ(workers.workers_size(), 2);
  for (const auto& w : workers.workers()) {
    EXPECT_EQ(w.slots(), 2);
    EXPECT_EQ(w.free_slots(), 2);
    EXPECT_THAT(w.worker_id(), StartsWith("worker-"));
  }

  // Read-only without --rest-token.
  HttpClientRequest stop;
  stop.method = "POST";
  stop.path = "/jobs/" + job + "/stop";
  auto refused =
      HttpFetch(cluster_->topology().coordinator_host(), cluster_->CoordinatorRestPort(), stop);
  ASSERT_TRUE(refused.ok());
  EXPECT_EQ(refused->status, 403);
  EXPECT_EQ(Get("/jobs/nope").status, 404);

  const std::string metrics = Get("/metrics").body;
  const std::string j = "job_id=\"" + job + "\"";
  EXPECT_EQ(SampleValue(metrics, "eddy_coordinator_jobs", {"status=\"FINISHED\""}), 1) << metrics;
  EXPECT_EQ(SampleValue(metrics, "eddy_coordinator_workers", {}), 2);
  EXPECT_EQ(SampleValue(metrics, "eddy_job_restarts_total", {j}), 0);
  EXPECT_EQ(SampleValue(metrics, "eddy_job_operator_records_out_total",
                        {j, "operator_name=\"TableSourceScan"}),
            10000);
  EXPECT_EQ(SampleValue(metrics, "eddy_job_operator_records_in_total",
                        {j, "operator_name=\"GroupAggregate"}),
            10000);
  EXPECT_EQ(SampleValue(metrics, "eddy_job_operator_records_in_total",
                        {j, "operator_name=\"Sink(table=[default_catalog.default_database.hole]"}),
            10000);
  EXPECT_GT(SampleValue(metrics, "process_resident_memory_bytes", {}), 0);
  // The client's statements and the workers' heartbeats, all answered OK.
  EXPECT_GE(SampleValue(metrics, "eddy_rpc_server_handled_total",
                        {"method=\"/eddy.v1.ClientService/ExecuteStatement\"", "code=\"OK\""}),
            3)
      << metrics;
  EXPECT_GE(SampleValue(metrics, "eddy_rpc_server_handled_total",
                        {"method=\"/eddy.v1.ClusterService/Heartbeat\"", "code=\"OK\""}),
            1);
  EXPECT_GT(SampleValue(metrics, "eddy_rpc_server_handling_seconds_total",
                        {"method=\"/eddy.v1.ClientService/ExecuteStatement\"", "code=\"OK\""}),
            0);

  // The job ended: its subtasks left the workers' metrics; the worker's own remain.
  for (int i = 0; i < 2; ++i) {
    const std::string w = WorkerMetrics(i);
    EXPECT_EQ(SampleValue(w, "eddy_worker_slots", {}), 2) << w;
    EXPECT_THAT(w, Not(HasSubstr(j)));
    EXPECT_GT(SampleValue(w, "process_threads", {}), 1);
    EXPECT_GT(SampleValue(w, "eddy_rocksdb_block_cache_capacity_bytes", {}), 0);
    // The coordinator deployed the job's subtasks here.
    EXPECT_GE(SampleValue(w, "eddy_rpc_server_handled_total",
                          {"method=\"/eddy.v1.WorkerService/DeployTasks\"", "code=\"OK\""}),
              1)
        << w;
  }
}

TEST_F(ObservabilityTest, ABlockedSinkBackPressuresItsProducersAndStopNeedsTheToken) {
  ClusterOptions options{.workers = 2, .slots_per_worker = 2};
  options.coordinator_args = {"--rest-token", "let-me-stop"};
  ASSERT_NO_FATAL_FAILURE(PipeWorkerStdout(&options));  // never read: the print sink blocks
  ASSERT_NO_FATAL_FAILURE(StartCluster(options));
  // Two source subtasks feed one print subtask over an exchange; once the pipe is full the print
  // sink blocks and the sources wait for credit.
  RunResult r = Eddy(
      "SET 'parallelism.default' = '2';"
      "CREATE TEMPORARY TABLE wide (id BIGINT, pad STRING) WITH ('connector' = 'datagen', "
      "'fields.pad.length' = '1000');"
      "CREATE TEMPORARY TABLE out WITH ('connector' = 'print', 'sink.parallelism' = '1') "
      "LIKE wide (EXCLUDING OPTIONS);"
      "INSERT INTO out SELECT * FROM wide;");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string job = JobIdIn(r.err);
  const std::string j = "job_id=\"" + job + "\"";

  double back_pressured = 0, busy = 0;
  std::string last;
  EXPECT_TRUE(Eventually(
      [&] {
        back_pressured = busy = 0;
        for (int i = 0; i < 2; ++i) {
          last = WorkerMetrics(i);
          back_pressured +=
              SampleSum(last, "eddy_task_back_pressured_time_ms_total", {j, "vertex=\"0\""});
          busy += SampleSum(last, "eddy_task_busy_time_ms_total", {j, "vertex=\"0\""});
        }
        return back_pressured >= 500;
      },
      std::chrono::seconds(60)))
      << "back-pressured " << back_pressured << " ms; last worker metrics:\n"
      << last;
  // The sources spend their time waiting for credit, not working.
  EXPECT_GT(back_pressured, busy) << last;

  std::string all;
  for (int i = 0; i < 2; ++i) all += WorkerMetrics(i);
  EXPECT_GT(SampleSum(all, "eddy_operator_records_out_total",
                      {j, "vertex=\"0\"", "operator_name=\"TableSourceScan"}),
            0)
      << all;
  EXPECT_GT(SampleSum(all, "eddy_operator_bytes_out_total",
                      {j, "vertex=\"0\"", "operator_name=\"TableSourceScan"}),
            1000)
      << all;
  // The print subtask's gate is full and grants no more credit.
  const double queued = SampleSum(all, "eddy_exchange_input_queue_batches", {j, "vertex=\"1\""});
  const double credits = SampleSum(all, "eddy_exchange_input_credits_batches", {j, "vertex=\"1\""});
  EXPECT_GT(queued, 0) << all;
  EXPECT_EQ(credits, 0) << all;
  EXPECT_EQ(SampleSum(all, "eddy_exchange_input_channels", {j, "vertex=\"1\""}), 2) << all;
  // Their producers, the two sources, have no credit left on their one channel each.
  EXPECT_EQ(SampleSum(all, "eddy_exchange_output_channels", {j, "vertex=\"0\""}), 2) << all;
  EXPECT_EQ(SampleSum(all, "eddy_exchange_output_credits_batches", {j, "vertex=\"0\""}), 0) << all;
  EXPECT_EQ(SampleSum(all, "eddy_exchange_output_channels_without_credit", {j, "vertex=\"0\""}), 2)
      << all;
  EXPECT_GE(SampleValue(all, "eddy_exchange_output_queue_rows", {j, "vertex=\"0\""}), 0)
      << all;  // present (-1 when absent)

  // The coordinator hears of it with the heartbeats: the sources' vertex is back-pressured.
  v1::RestJobDetails details;
  EXPECT_TRUE(Eventually(
      [&] {
        details = GetJson<v1::RestJobDetails>("/jobs/" + job);
        return details.vertices_size() == 2 && details.vertices(0).back_pressured_ms() >= 500;
      },
      std::chrono::seconds(30)))
      << details.DebugString();
  EXPECT_GT(details.vertices(0).back_pressured_ms(), details.vertices(0).busy_ms());
  EXPECT_EQ(details.state(), "RUNNING");
  ASSERT_EQ(details.vertices_size(), 2);
  EXPECT_EQ(details.vertices(1).ship_strategies(0), "REBALANCE");
  EXPECT_EQ(details.vertices(1).parallelism(), 1);

  // Stopping needs the bearer token.
  HttpClientRequest stop;
  stop.method = "POST";
  stop.path = "/jobs/" + job + "/stop";
  const std::string host = cluster_->topology().coordinator_host();
  const int port = cluster_->CoordinatorRestPort();
  auto anonymous = HttpFetch(host, port, stop);
  ASSERT_TRUE(anonymous.ok());
  EXPECT_EQ(anonymous->status, 401);
  stop.headers["Authorization"] = "Bearer let-me-stop";
  auto stopped = HttpFetch(host, port, stop);
  ASSERT_TRUE(stopped.ok());
  EXPECT_EQ(stopped->status, 202) << stopped->body;
  EXPECT_EQ(cluster_->WaitForJobStatus(job, {"CANCELED"}, std::chrono::seconds(30)), "CANCELED");
  EXPECT_EQ(GetJson<v1::RestJobDetails>("/jobs/" + job).state(), "CANCELED");
}

TEST_F(ObservabilityTest, ASlowEventTimeJobShowsIdleTimeWatermarksAndCheckpoints) {
  ASSERT_NO_FATAL_FAILURE(StartCluster(ClusterOptions{.workers = 2, .slots_per_worker = 2}));
  // Ids as seconds since the epoch: the watermark follows them, far behind the wall clock.
  RunResult r = Eddy(
      "SET 'execution.checkpointing.interval' = '300 ms';"
      "SET 'parallelism.default' = '1';"  // one vertex: source to sink in one chain
      "CREATE TEMPORARY TABLE seq (id BIGINT, ts AS TO_TIMESTAMP_LTZ(id * 1000, 3), "
      "WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen', 'rows-per-second' = '100', "
      "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '1000000');"
      "CREATE TEMPORARY TABLE hole (k BIGINT, c BIGINT) WITH ('connector' = 'blackhole');"
      "INSERT INTO hole SELECT id % 4, COUNT(*) "
      "FROM TABLE(TUMBLE(TABLE seq, DESCRIPTOR(ts), INTERVAL '10' SECOND)) "
      "GROUP BY window_start, window_end, id % 4;");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string job = JobIdIn(r.err);
  const std::string j = "job_id=\"" + job + "\"";

  std::string all;
  double watermark = -1, idle = 0, busy = 0;
  EXPECT_TRUE(Eventually(
      [&] {
        all = WorkerMetrics(0) + WorkerMetrics(1);
        watermark = SampleValue(all, "eddy_operator_current_input_watermark_ms",
                                {j, "operator_name=\"WindowAggregate"});
        idle = SampleSum(all, "eddy_task_idle_time_ms_total", {j, "vertex=\"0\""});
        busy = SampleSum(all, "eddy_task_busy_time_ms_total", {j, "vertex=\"0\""});
        return watermark >= 30000 && idle >= 1000;  // 30 rows in, and a second of waiting
      },
      std::chrono::seconds(60)))
      << all;
  // 100 rows a second keep the source waiting most of the time.
  EXPECT_GT(idle, busy) << all;
  // Event time of 1970: the lag is the age of the epoch, give or take the run.
  const double lag =
      SampleValue(all, "eddy_operator_watermark_lag_ms", {j, "operator_name=\"WindowAggregate"});
  EXPECT_GT(lag, 1.7e12) << all;
  // The assigner makes the watermark: the window operator's input is the assigner's output (the
  // two read a moment apart, when at most a batch of a few rows can pass).
  EXPECT_NEAR(SampleValue(all, "eddy_operator_current_output_watermark_ms",
                          {j, "operator_name=\"WatermarkAssigner"}),
              SampleValue(all, "eddy_operator_current_input_watermark_ms",
                          {j, "operator_name=\"WindowAggregate"}),
              60000)
      << all;
  EXPECT_THAT(all, HasSubstr("eddy_operator_rocksdb_sst_bytes{" + j));

  // The coordinator's view, from the heartbeats: the one vertex has the window's watermark.
  v1::RestJobDetails details;
  EXPECT_TRUE(Eventually(
      [&] {
        details = GetJson<v1::RestJobDetails>("/jobs/" + job);
        return details.vertices_size() == 1 && details.vertices(0).input_watermark_ms() >= 30000;
      },
      std::chrono::seconds(30)))
      << details.DebugString();
  EXPECT_EQ(details.vertices(0).input_watermark_ms() % 1000, 0);  // whole seconds, as the ids
  EXPECT_GT(details.vertices(0).idle_ms(), details.vertices(0).busy_ms());

  v1::RestCheckpoints checkpoints;
  EXPECT_TRUE(Eventually(
      [&] {
        checkpoints = GetJson<v1::RestCheckpoints>("/jobs/" + job + "/checkpoints");
        return checkpoints.completed() >= 2;
      },
      std::chrono::seconds(30)))
      << checkpoints.DebugString();
  EXPECT_GE(checkpoints.latest_id(), 2);
  EXPECT_GT(checkpoints.latest_size_bytes(), 0);
  const std::string metrics = Get("/metrics").body;
  EXPECT_GE(SampleValue(metrics, "eddy_job_checkpoints_completed_total", {j}), 2) << metrics;
  EXPECT_GE(SampleValue(metrics, "eddy_job_last_checkpoint_id", {j}), 2);
  EXPECT_EQ(SampleValue(metrics, "eddy_coordinator_jobs", {"status=\"RUNNING\""}), 1);
}

// A keyed COUNT over ten keys: its native accumulators look up every input row's group, so the
// state cache's hits and misses sum to the rows in, the misses are the ten keys' first rows, and
// the rates follow the source's 400 rows a second.
TEST_F(ObservabilityTest, StateCacheLookupsSumToTheRowsInAndRatesFollowTheSource) {
  ASSERT_NO_FATAL_FAILURE(StartCluster(ClusterOptions{.workers = 2, .slots_per_worker = 2}));
  RunResult r = Eddy(
      "SET 'parallelism.default' = '2';"
      "CREATE TEMPORARY TABLE seq (id BIGINT) WITH ('connector' = 'datagen', "
      "'rows-per-second' = '400', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
      "'fields.id.end' = '100000000');"
      "CREATE TEMPORARY TABLE hole (k BIGINT, c BIGINT) WITH ('connector' = 'blackhole');"
      "INSERT INTO hole SELECT id % 10, COUNT(*) FROM seq GROUP BY id % 10;");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string job = JobIdIn(r.err);
  const std::string j = "job_id=\"" + job + "\"";
  const std::string agg = "operator_name=\"GroupAggregate";

  // Counters read in one scrape are updated at different points of a batch: a scrape between
  // two batches sees them agree.
  std::string all;
  double rows_in = 0, hits = 0, misses = 0;
  EXPECT_TRUE(Eventually(
      [&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        all = WorkerMetrics(0) + WorkerMetrics(1);
        rows_in = SampleSum(all, "eddy_operator_records_in_total", {j, agg});
        hits = SampleSum(all, "eddy_operator_state_cache_hits_total", {j, agg});
        misses = SampleSum(all, "eddy_operator_state_cache_misses_total", {j, agg});
        return rows_in >= 2000 && hits + misses == rows_in && misses == 10;
      },
      std::chrono::seconds(60)))
      << "rows in " << rows_in << ", hits " << hits << ", misses " << misses << "\n"
      << all;
  // Each subtask's ratio is its own hits over its lookups.
  for (int subtask = 0; subtask < 2; ++subtask) {
    const std::vector<std::string> labels = {j, agg, "subtask=\"" + std::to_string(subtask) + "\""};
    const double h = SampleValue(all, "eddy_operator_state_cache_hits_total", labels);
    const double m = SampleValue(all, "eddy_operator_state_cache_misses_total", labels);
    ASSERT_GT(h + m, 0) << all;
    EXPECT_NEAR(SampleValue(all, "eddy_operator_state_cache_hit_ratio", labels), h / (h + m), 1e-6)
        << all;
  }
  // A stateless operator has no state cache.
  EXPECT_EQ(SampleValue(all, "eddy_operator_state_cache_hits_total",
                        {j, "operator_name=\"TableSourceScan"}),
            -1);

  // Rows per second over the job's first minute: the sources' 400 in all, as many into the
  // aggregate.
  const double out_rate = SampleSum(all, "eddy_operator_records_out_per_second",
                                    {j, "operator_name=\"TableSourceScan"});
  const double in_rate = SampleSum(all, "eddy_operator_records_in_per_second", {j, agg});
  EXPECT_GT(out_rate, 300) << all;
  EXPECT_LT(out_rate, 500) << all;
  EXPECT_GT(in_rate, 300) << all;
  EXPECT_LT(in_rate, 500) << all;
}

TEST_F(ObservabilityTest, AWorkerWhoseMetricsPortIsTakenSaysSoAndStillRuns) {
  auto taken = HttpServer::Start("0.0.0.0", 0, [](const HttpRequest&) { return HttpResponse{}; });
  ASSERT_TRUE(taken.ok()) << taken.status();
  const std::string port = std::to_string((*taken)->port());
  // Loopback: the workers share this process's network, where the port is taken.
  ClusterOptions options{.workers = 1, .slots_per_worker = 1, .isolate_workers = false};
  options.worker_args = {"--metrics-port", port, "--bind-host", "0.0.0.0"};
  ASSERT_NO_FATAL_FAILURE(StartCluster(options));
  EXPECT_THAT(ReadFileToString(dir_ + "/worker0.err"),
              HasSubstr("worker runs without /metrics: cannot listen for HTTP on 0.0.0.0:" + port));
  RunResult r = Eddy(
      "SET 'table.dml-sync' = 'true'; CREATE TEMPORARY TABLE hole (x INT) WITH "
      "('connector' = 'blackhole'); INSERT INTO hole VALUES (1);");
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
}  // namespace eddy::testing
