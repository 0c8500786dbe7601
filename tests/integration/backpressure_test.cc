// Backpressure end to end: the workers' stdout is a FIFO that the test stops reading, so the print
// sink blocks; credits stop flowing back over the exchange and the sources stall (their emitted
// rows stop growing, far short of all of them). Memory of every worker stays bounded while far
// more data than that waits to be produced, and once the reader resumes every row arrives exactly
// once.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <future>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "client/eddy_client.h"
#include "tests/integration/cluster_test.h"
#include "tests/integration/process_cluster.h"

namespace eddy::testing {
namespace {

constexpr int kWorkers = 3;
constexpr long long kRows = 200000;
constexpr int kPadBytes = 1000;  // ~200 MB of print output in all

// Resident memory of a process in bytes, 0 if unknown.
long long RssBytes(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atoll(line.c_str() + 6) * 1024;
  }
  return 0;
}

// The lines one worker printed, parsed as they arrive (on its pipe's reader thread): each row's id
// is marked seen; a duplicate, an unknown id or a malformed line counts as bad.
class LineChecker {
 public:
  explicit LineChecker(std::vector<std::atomic<uint8_t>>* seen) : seen_(seen) {}
  void Add(std::string_view bytes) {
    for (char c : bytes) {
      if (c != '\n') {
        if (partial_.size() < 32) partial_.push_back(c);  // the id is at the start
        continue;
      }
      Line();
      partial_.clear();
    }
  }
  long long lines() const { return lines_.load(); }
  long long bad_lines() const { return bad_lines_.load(); }

 private:
  void Line() {
    ++lines_;
    // "+I[<id>, <pad>]"
    long long id = partial_.rfind("+I[", 0) == 0 ? std::atoll(partial_.c_str() + 3) : 0;
    if (id < 1 || id > kRows || (*seen_)[id].fetch_add(1) != 0) ++bad_lines_;
  }

  std::vector<std::atomic<uint8_t>>* seen_;
  std::string partial_;
  std::atomic<long long> lines_{0};
  std::atomic<long long> bad_lines_{0};
};

// The workers print into pipes whose readers (members, so they outlive the reading threads, which
// stop in TearDown) start paused.
class BackpressureTest : public ClusterTest {
 protected:
  std::vector<std::atomic<uint8_t>> seen_ = std::vector<std::atomic<uint8_t>>(kRows + 1);
  std::vector<std::unique_ptr<LineChecker>> readers_;
};

TEST_F(BackpressureTest, BlockedSinkStallsTheSourcesWithBoundedMemoryAndLosesNoRow) {
  ClusterOptions options{.workers = kWorkers, .slots_per_worker = 2};
  for (int i = 0; i < kWorkers; ++i) readers_.push_back(std::make_unique<LineChecker>(&seen_));
  ASSERT_NO_FATAL_FAILURE(PipeWorkerStdout(&options));
  pipes().set_paused(true);
  pipes().StartReading(
      [this](int worker, std::string_view bytes) { readers_[worker]->Add(bytes); });
  ASSERT_NO_FATAL_FAILURE(StartCluster(options));
  ProcessCluster& cluster = *cluster_;

  std::vector<long long> baseline;
  for (int i = 0; i < kWorkers; ++i) baseline.push_back(RssBytes(cluster.worker_pid(i)));

  // Two source subtasks on different workers feed one print subtask: one channel in memory, one
  // over gRPC.
  auto job = std::async(std::launch::async, [&] {
    return cluster.Eddy(
        "SET 'table.dml-sync' = 'true'; SET 'parallelism.default' = '2';"
        "CREATE TEMPORARY TABLE wide (id BIGINT, pad STRING) WITH ('connector' = 'datagen',"
        " 'rows-per-second' = '1000000000', 'number-of-rows' = '" +
        std::to_string(kRows) +
        "',"
        " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '" +
        std::to_string(kRows) + "', 'fields.pad.length' = '" + std::to_string(kPadBytes) +
        "');"
        "CREATE TEMPORARY TABLE out WITH ('connector' = 'print', 'sink.parallelism' = '1')"
        " LIKE wide (EXCLUDING OPTIONS);"
        "INSERT INTO out SELECT * FROM wide;");
  });

  // While nobody reads, the sources stall: the rows they emitted (reported with each heartbeat,
  // once a second) stop growing, far short of all of them, and no worker's memory grows with the
  // data meanwhile. Without backpressure they would emit every row, however fast the machine.
  EddyClient client(cluster.coordinator_address(), "backpressure-test");
  long long max_growth = 0;
  int64_t emitted = -1;
  int unchanged_polls = 0;
  const auto stall_deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (unchanged_polls < 6 && std::chrono::steady_clock::now() < stall_deadline) {
    for (int i = 0; i < kWorkers; ++i) {
      max_growth = std::max(max_growth, RssBytes(cluster.worker_pid(i)) - baseline[i]);
    }
    int64_t rows = 0;
    auto jobs = client.ListJobs();
    if (jobs.ok() && jobs->size() == 1) {
      for (const auto& m : jobs->front().operators()) {
        if (m.description().rfind("TableSourceScan", 0) == 0) rows += m.rows_out();
      }
    }
    unchanged_polls = rows > 0 && rows == emitted ? unchanged_polls + 1 : 0;
    emitted = rows;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  ASSERT_GE(unchanged_polls, 6) << "the sources did not stall while the sink was blocked";
  EXPECT_LT(emitted, kRows) << "the sources emitted every row although the sink could not write";
  std::cout << "[backpressure] the sources stalled after " << emitted << " of " << kRows << " rows"
            << std::endl;
  EXPECT_EQ(job.wait_for(std::chrono::seconds(0)), std::future_status::timeout)
      << "the job finished although its sink could not write";
  const long long data_bytes = kRows * (kPadBytes + 10);
  std::cout << "[backpressure] largest worker memory growth while blocked: " << (max_growth >> 20)
            << " MiB, for " << (data_bytes >> 20) << " MiB of rows" << std::endl;
  EXPECT_LT(max_growth, 96ll << 20);

  pipes().set_paused(false);
  ASSERT_EQ(job.wait_for(std::chrono::seconds(120)), std::future_status::ready);
  RunResult r = job.get();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  auto total = [&] {
    long long n = 0;
    for (const auto& rd : readers_) n += rd->lines();
    return n;
  };
  while (total() < kRows && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(total(), kRows);
  long long bad = 0, missing = 0;
  for (const auto& rd : readers_) bad += rd->bad_lines();
  for (long long id = 1; id <= kRows; ++id) missing += seen_[id].load() == 0 ? 1 : 0;
  EXPECT_EQ(bad, 0) << "duplicated or malformed rows";
  EXPECT_EQ(missing, 0) << "rows lost";
}

}  // namespace
}  // namespace eddy::testing
