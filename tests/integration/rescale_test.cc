// Rescaling event-time operators from savepoints on a coordinator and three worker processes:
// each keyed operator that keeps timers or window bookkeeping beside its keyed state (TUMBLE, HOP,
// CUMULATE and SESSION window aggregations, a window Top-N, an OVER aggregation, interval and
// temporal joins) runs at parallelism 2, is stopped with a savepoint at a moment drawn from a seed
// (printed; EDDY_TEST_SEED replays a run), and is resumed from it at parallelism 3 or 1. What its
// exactly-once filesystem sink published over both jobs must be exactly what the same query
// publishes when it runs to its end without a stop; once with a worker killed (SIGKILL) at a
// seeded moment after the resume. Sources and sinks keep parallelism 1 (their own state is not
// split).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/integration/cluster_test.h"
#include "tests/integration/process_cluster.h"

namespace eddy::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

constexpr int64_t kRows = 9000;

// A sequence of ids 1..kRows at `per_second` rows a second in one subtask, as table `name`, with
// key k = id % `keys` and event time `time_expr` (over id, epoch millis).
std::string Sequence(const std::string& name, int per_second, int keys,
                     const std::string& time_expr = "id * 10") {
  return "CREATE TEMPORARY TABLE " + name + " (id BIGINT, k AS id % " + std::to_string(keys) +
         ", ts AS TO_TIMESTAMP_LTZ(" + time_expr +
         ", 3), WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen', 'scan.parallelism' = '1', "
         "'rows-per-second' = '" +
         std::to_string(per_second) +
         "', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '" +
         std::to_string(kRows) + "');";
}

// An exactly-once CSV filesystem sink `out` (columns `columns`) in one subtask, writing to `path`.
std::string FileSink(const std::string& columns, const std::string& path) {
  return "CREATE TEMPORARY TABLE out (" + columns +
         ") WITH ('connector' = 'filesystem', 'sink.parallelism' = '1', 'path' = '" + path +
         "', 'format' = 'csv');";
}

// A query under test: its tables and INSERT, given the sink's directory.
using QuerySql = std::string (*)(const std::string& path);

std::string TumbleSql(const std::string& path) {
  return Sequence("ev", 1500, 13) +
         FileSink("k BIGINT, ws TIMESTAMP(3), c BIGINT, s BIGINT", path) +
         "INSERT INTO out SELECT k, window_start, COUNT(*), SUM(id) FROM TABLE(TUMBLE(TABLE ev, "
         "DESCRIPTOR(ts), INTERVAL '2' SECOND)) GROUP BY k, window_start, window_end;";
}

std::string HopSql(const std::string& path) {
  return Sequence("ev", 1500, 13) +
         FileSink("k BIGINT, ws TIMESTAMP(3), c BIGINT, s BIGINT", path) +
         "INSERT INTO out SELECT k, window_start, COUNT(*), SUM(id) FROM TABLE(HOP(TABLE ev, "
         "DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '3' SECOND)) GROUP BY k, window_start, "
         "window_end;";
}

std::string CumulateSql(const std::string& path) {
  return Sequence("ev", 1500, 13) +
         FileSink("k BIGINT, ws TIMESTAMP(3), we TIMESTAMP(3), c BIGINT, s BIGINT", path) +
         "INSERT INTO out SELECT k, window_start, window_end, COUNT(*), SUM(id) FROM "
         "TABLE(CUMULATE(TABLE ev, DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '4' SECOND)) "
         "GROUP BY k, window_start, window_end;";
}

// Every 200 ids event time jumps 3 s: per key, sessions of 200 ids with a one-second gap.
std::string SessionSql(const std::string& path) {
  return Sequence("ev", 1500, 13, "id * 10 + (id / 200) * 3000") +
         FileSink("k BIGINT, ws TIMESTAMP(3), we TIMESTAMP(3), c BIGINT, s BIGINT", path) +
         "INSERT INTO out SELECT k, window_start, window_end, COUNT(*), SUM(id) FROM "
         "TABLE(SESSION(TABLE ev PARTITION BY k, DESCRIPTOR(ts), INTERVAL '1' SECOND)) GROUP BY "
         "k, window_start, window_end;";
}

std::string WindowTopNSql(const std::string& path) {
  return Sequence("ev", 1500, 13) + FileSink("k BIGINT, ws TIMESTAMP(3), id BIGINT", path) +
         "INSERT INTO out SELECT k, window_start, id FROM (SELECT k, window_start, window_end, "
         "id, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, k ORDER BY id DESC) AS rn "
         "FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '2' SECOND))) WHERE rn <= 2;";
}

std::string OverSql(const std::string& path) {
  return Sequence("ev", 1500, 13) + FileSink("k BIGINT, id BIGINT, s BIGINT, c BIGINT", path) +
         "INSERT INTO out SELECT k, id, SUM(id) OVER w, COUNT(*) OVER w FROM ev WINDOW w AS "
         "(PARTITION BY k ORDER BY ts ROWS BETWEEN 5 PRECEDING AND CURRENT ROW);";
}

// Per key (id % 40), right rows of the last second with ids divisible by 5: a left row matches
// three of them or none, and is then emitted padded when its timer fires.
std::string IntervalJoinSql(const std::string& path) {
  return Sequence("l", 1500, 40) + Sequence("r", 1000, 40) +
         FileSink("lid BIGINT, rid BIGINT", path) +
         "INSERT INTO out SELECT l.id, r2.id FROM l LEFT JOIN (SELECT * FROM r WHERE id % 5 = 0) "
         "AS r2 ON l.k = r2.k AND r2.ts BETWEEN l.ts - INTERVAL '1' SECOND AND l.ts;";
}

// Orders wait for the watermark of the versions (which come slower), each joining the version of
// its own key.
std::string TemporalJoinSql(const std::string& path) {
  return Sequence("orders", 1500, 1) +
         "CREATE TEMPORARY TABLE versions (v BIGINT, vts AS TO_TIMESTAMP_LTZ(v * 10, 3), "
         "WATERMARK FOR vts AS vts, PRIMARY KEY (v) NOT ENFORCED) WITH ('connector' = 'datagen', "
         "'scan.parallelism' = '1', 'rows-per-second' = '1000', 'fields.v.kind' = 'sequence', "
         "'fields.v.start' = '1', 'fields.v.end' = '" +
         std::to_string(kRows) + "');" + FileSink("id BIGINT, twice BIGINT", path) +
         "INSERT INTO out SELECT o.id, v.v * 2 FROM orders AS o JOIN versions FOR SYSTEM_TIME AS "
         "OF o.ts AS v ON o.id = v.v;";
}

class RescaleTest : public ClusterTest {
 protected:
  void SetUp() override {
    Random();  // the seed first, so that it is printed even if the cluster does not start
    ASSERT_NO_FATAL_FAILURE(StartCluster(FaultToleranceOptions()));
  }

  std::string Settings(int parallelism) const {
    return "SET 'execution.checkpointing.interval' = '1 s';"
           "SET 'restart-strategy.type' = 'fixed-delay';"
           "SET 'restart-strategy.fixed-delay.attempts' = '5';"
           "SET 'restart-strategy.fixed-delay.delay' = '500 ms';"
           "SET 'state.savepoints.dir' = '" +
           files_ + "/savepoints';SET 'parallelism.default' = '" + std::to_string(parallelism) +
           "';";
  }

  // Submits `sql` and returns the job's id ("" and a failure when it was refused).
  std::string Submit(const std::string& sql) {
    RunResult submitted = cluster_->Eddy(sql);
    EXPECT_EQ(submitted.exit_code, 0) << submitted.err;
    return JobIdIn(submitted.err);
  }
  bool WaitUntilFinished(const std::string& job) {
    const std::string status =
        cluster_->WaitForJobStatus(job, {"FINISHED", "FAILED"}, std::chrono::seconds(180));
    EXPECT_EQ(status, "FINISHED") << cluster_->CoordinatorLog();
    return status == "FINISHED";
  }

  // STOP JOB ... WITH SAVEPOINT; the savepoint's directory ("" and a failure when none).
  std::string StopWithSavepoint(const std::string& job) {
    RunResult r = cluster_->Eddy("STOP JOB '" + job + "' WITH SAVEPOINT;", 120000);
    EXPECT_EQ(r.exit_code, 0) << r.err << cluster_->CoordinatorLog();
    std::istringstream in(r.out);
    std::string line;
    while (std::getline(in, line)) {
      std::vector<std::string> cells = TableRowCells(line);
      if (cells.size() == 1 && cells[0].find("/savepoint-") != std::string::npos) return cells[0];
    }
    ADD_FAILURE() << "no savepoint path in: " << r.out << r.err;
    return "";
  }

  // Every line of the published part files under `dir`, with how often it occurs.
  static std::map<std::string, int> Published(const std::string& dir) {
    std::map<std::string, int> lines;
    if (!fs::exists(dir)) return lines;
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.path().filename().string()[0] == '.') continue;  // in progress or pending
      std::istringstream in(ReadFileToString(entry.path().string()));
      std::string line;
      while (std::getline(in, line)) ++lines[line];
    }
    return lines;
  }
  static size_t Total(const std::map<std::string, int>& lines) {
    size_t n = 0;
    for (const auto& [line, count] : lines) n += static_cast<size_t>(count);
    return n;
  }

  // What every worker process logged so far.
  std::string WorkerLogs() const {
    std::string logs;
    for (const auto& entry : fs::directory_iterator(dir_)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("worker", 0) == 0 && entry.path().extension() == ".err") {
        logs += ReadFileToString(entry.path().string());
      }
    }
    return logs;
  }

  // The fault-free answer (the query run to its end at parallelism 2), then the query at
  // parallelism 2 stopped with a savepoint at a seeded moment and resumed at `resume_parallelism`
  // (with a worker killed after the resume when `kill_after_resume`): both publish the same lines.
  void StopAndResumeAtAnotherParallelism(QuerySql query, int resume_parallelism,
                                         bool kill_after_resume = false) {
    const std::string expected_dir = files_ + "/expected";
    const std::string out_dir = files_ + "/out";
    const std::string fault_free = Submit(Settings(2) + query(expected_dir));
    ASSERT_FALSE(fault_free.empty());
    ASSERT_TRUE(WaitUntilFinished(fault_free));
    const std::map<std::string, int> expected = Published(expected_dir);
    ASSERT_GT(Total(expected), 100u);

    const std::string job = Submit(Settings(2) + query(out_dir));
    ASSERT_FALSE(job.empty());
    ASSERT_FALSE(
        WaitForACompletedCheckpoint(job, "", /*while_running=*/true, std::chrono::seconds(30))
            .empty())
        << cluster_->CoordinatorLog();
    std::this_thread::sleep_for(std::chrono::milliseconds(Random()() % 1500));
    const std::string savepoint = StopWithSavepoint(job);
    ASSERT_FALSE(savepoint.empty());
    const size_t before = Total(Published(out_dir));
    std::cout << "stopped with " << before << " of " << Total(expected) << " lines published"
              << std::endl;
    ASSERT_LT(before, Total(expected)) << "the job ended before its stop";

    const std::string resumed =
        Submit(Settings(resume_parallelism) + "SET 'execution.savepoint.path' = '" + savepoint +
               "';" + query(out_dir));
    ASSERT_FALSE(resumed.empty());
    if (kill_after_resume) {
      ASSERT_EQ(cluster_->WaitForJobStatus(resumed, {"RUNNING"}, std::chrono::seconds(30)),
                "RUNNING");
      ASSERT_GE(
          KillAWorkerRunningSubtasks(std::chrono::milliseconds(0), std::chrono::milliseconds(1500)),
          0);
    }
    ASSERT_TRUE(WaitUntilFinished(resumed));
    EXPECT_THAT(cluster_->CoordinatorLog(),
                ::testing::ContainsRegex("job " + resumed +
                                         " .* deployed: .*, restored from savepoint " + savepoint));
    // The keyed operators' stores were split or merged by key group.
    if (resume_parallelism != 2) {
      EXPECT_THAT(WorkerLogs(),
                  ::testing::ContainsRegex("keys of key groups [0-9]+-[0-9]+ restored "
                                           "from [12] subtasks' state taken at "
                                           "parallelism 2"));
    }
    const std::map<std::string, int> published = Published(out_dir);
    EXPECT_EQ(Total(published), Total(expected));
    EXPECT_TRUE(published == expected) << "the stopped and resumed jobs published other lines";
    if (published != expected) {
      int shown = 0;
      for (const auto& [line, count] : expected) {
        auto it = published.find(line);
        const int got = it == published.end() ? 0 : it->second;
        if (got != count && shown++ < 10) {
          std::cout << "expected " << count << "x, got " << got << "x: " << line << std::endl;
        }
      }
      for (const auto& [line, count] : published) {
        if (!expected.count(line) && shown++ < 20) std::cout << "unexpected: " << line << std::endl;
      }
    }
  }
};

TEST_F(RescaleTest, ATumblingWindowAggregationResumesAtParallelismThree) {
  StopAndResumeAtAnotherParallelism(TumbleSql, 3);
}

TEST_F(RescaleTest, AHoppingWindowAggregationResumesAtParallelismOne) {
  StopAndResumeAtAnotherParallelism(HopSql, 1);
}

TEST_F(RescaleTest, ACumulatingWindowAggregationResumesAtParallelismThree) {
  StopAndResumeAtAnotherParallelism(CumulateSql, 3);
}

TEST_F(RescaleTest, ASessionWindowAggregationResumesAtParallelismThree) {
  StopAndResumeAtAnotherParallelism(SessionSql, 3);
}

TEST_F(RescaleTest, AWindowTopNResumesAtParallelismOne) {
  StopAndResumeAtAnotherParallelism(WindowTopNSql, 1);
}

TEST_F(RescaleTest, AnOverAggregationResumesAtParallelismThree) {
  StopAndResumeAtAnotherParallelism(OverSql, 3);
}

TEST_F(RescaleTest, AnIntervalJoinResumesAtParallelismThree) {
  StopAndResumeAtAnotherParallelism(IntervalJoinSql, 3);
}

TEST_F(RescaleTest, ATemporalJoinResumesAtParallelismOne) {
  StopAndResumeAtAnotherParallelism(TemporalJoinSql, 1);
}

TEST_F(RescaleTest, AnOverAggregationResumedAtParallelismOneSurvivesAKilledWorker) {
  StopAndResumeAtAnotherParallelism(OverSql, 1, /*kill_after_resume=*/true);
}

TEST_F(RescaleTest, ASessionWindowAggregationResumedAtParallelismThreeSurvivesAKilledWorker) {
  StopAndResumeAtAnotherParallelism(SessionSql, 3, /*kill_after_resume=*/true);
}

// Resumed at the parallelism it was stopped at: every source's position comes back (one source's
// state id may equal another task's exchange node id + 1).
TEST_F(RescaleTest, AnIntervalJoinResumesAtTheSameParallelism) {
  StopAndResumeAtAnotherParallelism(IntervalJoinSql, 2);
}

TEST_F(RescaleTest, AnIntervalJoinResumedAtParallelismThreeSurvivesAKilledWorker) {
  StopAndResumeAtAnotherParallelism(IntervalJoinSql, 3, /*kill_after_resume=*/true);
}

}  // namespace
}  // namespace eddy::testing
