// eddy-bench-checkpoints: what checkpoints cost besides throughput (eddy-bench's b3, b4, c3, c4
// give that), on a coordinator and worker processes on loopback:
//   (size)     keyed COUNT/SUM over --keys keys (default 1M) in one subtask, --rows rows, a
//              checkpoint every --interval: each completed checkpoint's duration (trigger to
//              completion, the upload included), the size of the files it references, and what it
//              added (the first is full, the later ones incremental).
//   (recovery) keyed COUNT/SUM on three workers, 20,000 rows/s printed, a checkpoint a second,
//              the coordinator's --heartbeat-timeout-ms 3000 and a fixed-delay restart without
//              delay: after three checkpoints a worker running subtasks is killed (SIGKILL), and
//              the time from the kill to the job RESTARTING (the failure noticed), to RUNNING again
//              (redeployed and restored), and to its first printed change (processing again) is
//              measured, --runs times at parallelism 2 (the surviving side of a gRPC exchange
//              notices the loss at once) and at parallelism 1 (one task, nothing but the missing
//              heartbeats tells).
// --scenarios picks them (default size,recovery).
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_split.h"
#include "bench/local_process_cluster.h"
#include "client/eddy_client.h"
#include "common/base/logging.h"
#include "common/base/program_flags.h"

ABSL_FLAG(std::string, scenarios, "size,recovery", "comma-separated: size, recovery");
ABSL_FLAG(int, rows, 10000000, "rows of the size scenario");
ABSL_FLAG(int, keys, 1000000, "distinct keys of the size scenario");
ABSL_FLAG(std::string, interval, "5 s", "checkpoint interval of the size scenario");
ABSL_FLAG(int, runs, 3, "kills of the recovery scenario, each on a fresh cluster");

namespace {

using Clock = std::chrono::steady_clock;

double MillisSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

bool ExecuteAll(eddy::EddyClient& client, const std::vector<std::string>& statements,
                std::string* job_id) {
  for (const std::string& stmt : statements) {
    auto r = client.Execute(stmt);
    if (!r.ok()) {
      std::fprintf(stderr, "eddy-bench-checkpoints: %s\n  in: %s\n",
                   std::string(r.status().message()).c_str(), stmt.c_str());
      return false;
    }
    if (!r->job_id().empty()) *job_id = r->job_id();
  }
  return true;
}

int SizeScenario(const std::string& bin_dir, int64_t rows, int64_t keys,
                 const std::string& interval) {
  auto cluster = eddy::bench::LocalProcessCluster::Start(bin_dir, 1, 1, {});
  if (!cluster.ok()) {
    std::fprintf(stderr, "eddy-bench-checkpoints: %s\n",
                 std::string(cluster.status().message()).c_str());
    return 1;
  }
  eddy::EddyClient client((*cluster)->coordinator_address(), "eddy-bench-checkpoints");
  const std::string n = std::to_string(rows), k = std::to_string(keys);
  std::string job;
  if (!ExecuteAll(
          client,
          {"SET 'execution.checkpointing.interval' = '" + interval + "'",
           "CREATE TEMPORARY TABLE src (id BIGINT) WITH ('connector' = 'datagen', "
           "'rows-per-second' = '1000000000000', 'number-of-rows' = '" +
               n +
               "', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
               "'fields.id.end' = '" +
               n + "')",
           "CREATE TEMPORARY TABLE agg (k BIGINT, c BIGINT, s BIGINT) WITH "
           "('connector' = 'blackhole')",
           "INSERT INTO agg SELECT id % " + k + ", COUNT(*), SUM(id) FROM src GROUP BY id % " + k},
          &job)) {
    return 1;
  }
  std::printf("(size) keyed COUNT/SUM, %s keys, %s rows, a checkpoint every %s\n", k.c_str(),
              n.c_str(), interval.c_str());
  std::printf("%10s %12s %14s %14s\n", "checkpoint", "duration ms", "size MiB", "added MiB");
  const auto t0 = Clock::now();
  int64_t seen = 0;
  while (true) {
    auto info = client.GetJob(job);
    if (!info.ok()) {
      std::fprintf(stderr, "eddy-bench-checkpoints: %s\n",
                   std::string(info.status().message()).c_str());
      return 1;
    }
    if (info->last_checkpoint_id() > seen) {
      seen = info->last_checkpoint_id();
      std::printf("%10lld %12lld %14.1f %14.1f   (at %.1f s)\n", static_cast<long long>(seen),
                  static_cast<long long>(info->last_checkpoint_duration_ms()),
                  info->last_checkpoint_size_bytes() / 1048576.0,
                  info->last_checkpoint_new_bytes() / 1048576.0, MillisSince(t0) / 1000);
      std::fflush(stdout);
    }
    if (info->status() == eddy::v1::JOB_STATUS_FINISHED) break;
    if (info->status() == eddy::v1::JOB_STATUS_FAILED ||
        info->status() == eddy::v1::JOB_STATUS_CANCELED) {
      std::fprintf(stderr, "eddy-bench-checkpoints: the job ended: %s\n", info->error().c_str());
      return 1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::printf("finished in %.1f s\n", MillisSince(t0) / 1000);
  return 0;
}

std::string ReadFrom(const std::string& path, size_t offset) {
  std::ifstream in(path, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(offset));
  return std::string(std::istreambuf_iterator<char>(in), {});
}

size_t FileSize(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  return ec ? 0 : static_cast<size_t>(size);
}

int RecoveryRun(const std::string& bin_dir, int parallelism, int run) {
  auto started = eddy::bench::LocalProcessCluster::Start(bin_dir, 3, 2, {},
                                                         {"--heartbeat-timeout-ms", "3000"});
  if (!started.ok()) {
    std::fprintf(stderr, "eddy-bench-checkpoints: %s\n",
                 std::string(started.status().message()).c_str());
    return 1;
  }
  eddy::bench::LocalProcessCluster& cluster = **started;
  eddy::EddyClient client(cluster.coordinator_address(), "eddy-bench-checkpoints");
  std::string job;
  if (!ExecuteAll(
          client,
          {"SET 'execution.checkpointing.interval' = '1 s'",
           "SET 'restart-strategy.type' = 'fixed-delay'",
           "SET 'restart-strategy.fixed-delay.attempts' = '3'",
           "SET 'restart-strategy.fixed-delay.delay' = '0 s'",
           "SET 'parallelism.default' = '" + std::to_string(parallelism) + "'",
           "CREATE TEMPORARY TABLE src (id BIGINT) WITH ('connector' = 'datagen', "
           "'rows-per-second' = '20000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
           "'fields.id.end' = '1000000000')",
           "CREATE TEMPORARY TABLE out (k BIGINT, c BIGINT, s BIGINT) WITH ('connector' = 'print')",
           "INSERT INTO out SELECT id % 100000, COUNT(*), SUM(id) FROM src GROUP BY id % 100000"},
          &job)) {
    return 1;
  }
  // Three completed checkpoints, then a worker that runs subtasks goes.
  const auto warmup_deadline = Clock::now() + std::chrono::seconds(60);
  while (true) {
    auto info = client.GetJob(job);
    if (info.ok() && info->last_checkpoint_id() >= 3) break;
    if (Clock::now() > warmup_deadline) {
      std::fprintf(stderr, "eddy-bench-checkpoints: no third checkpoint within 60 s\n");
      return 1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  int victim = -1;
  auto workers = client.ListWorkers();
  if (workers.ok()) {
    for (const auto& w : *workers) {
      for (int i = 0; i < 3 && victim < 0; ++i) {
        if (w.address() == cluster.worker_address(i) && w.running_subtasks() > 0) victim = i;
      }
    }
  }
  if (victim < 0) {
    std::fprintf(stderr, "eddy-bench-checkpoints: no worker reports running subtasks\n");
    return 1;
  }
  std::vector<size_t> log_sizes;
  for (int i = 0; i < 3; ++i) log_sizes.push_back(FileSize(cluster.worker_log(i)));
  const auto t0 = Clock::now();
  cluster.KillWorker(victim);
  double restarting = -1, running = -1, processing = -1;
  const auto deadline = t0 + std::chrono::seconds(60);
  while (processing < 0 && Clock::now() < deadline) {
    if (running < 0) {
      auto info = client.GetJob(job);
      if (info.ok() && restarting < 0 &&
          (info->status() == eddy::v1::JOB_STATUS_RESTARTING || info->attempt() > 1)) {
        restarting = MillisSince(t0);
      }
      if (info.ok() && info->attempt() > 1 && info->status() == eddy::v1::JOB_STATUS_RUNNING) {
        running = MillisSince(t0);
        for (int i = 0; i < 3; ++i) log_sizes[i] = FileSize(cluster.worker_log(i));
      }
    } else {
      // The first change the restored job prints on a surviving worker.
      for (int i = 0; i < 3 && processing < 0; ++i) {
        if (i == victim) continue;
        const std::string printed = ReadFrom(cluster.worker_log(i), log_sizes[i]);
        if (printed.find("+I[") != std::string::npos || printed.find("+U[") != std::string::npos) {
          processing = MillisSince(t0);
        }
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  (void)client.CancelJob(job);
  std::printf("%11d %5d %8d %14.0f %14.0f %14.0f\n", parallelism, run, victim, restarting, running,
              processing);
  std::fflush(stdout);
  return processing < 0 ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (auto code = eddy::ParseFlagsOrExitCode(argc, argv, "eddy-bench-checkpoints")) {
    return *code;
  }
  eddy::InitLogging("warn");
  const int rows = absl::GetFlag(FLAGS_rows);
  const int keys = absl::GetFlag(FLAGS_keys);
  const int runs = absl::GetFlag(FLAGS_runs);
  if (rows <= 0 || keys <= 0 || runs <= 0) {
    std::fprintf(stderr, "eddy-bench-checkpoints: --rows, --keys and --runs must be positive\n");
    return 2;
  }
  const std::string bin_dir =
      std::filesystem::absolute(std::filesystem::path(argv[0])).parent_path().string();
  int status = 0;
  for (const std::string& id : std::vector<std::string>(
           absl::StrSplit(absl::GetFlag(FLAGS_scenarios), ',', absl::SkipEmpty()))) {
    if (id == "size") {
      status |= SizeScenario(bin_dir, rows, keys, absl::GetFlag(FLAGS_interval));
    } else if (id == "recovery") {
      std::printf(
          "(recovery) ms from SIGKILL of a worker to: the job RESTARTING, RUNNING again, "
          "its first printed change\n");
      std::printf("%11s %5s %8s %14s %14s %14s\n", "parallelism", "run", "victim", "restarting",
                  "running", "processing");
      for (int parallelism : {2, 1}) {
        for (int run = 1; run <= runs; ++run) status |= RecoveryRun(bin_dir, parallelism, run);
      }
    } else {
      std::fprintf(stderr, "eddy-bench-checkpoints: unknown scenario '%s' (size, recovery)\n",
                   id.c_str());
      return 2;
    }
  }
  return status;
}
