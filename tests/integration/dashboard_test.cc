// The dashboard in a real browser: headless Chromium (Debian's `chromium`) loads the coordinator's
// page of a running job whose sink is blocked (its worker prints into a pipe nobody reads), and
// the DOM it rendered after a few refreshes must show the job and its graph: a box per vertex, an
// arrow per exchange, the sources' box red with back-pressure; and a checkpointed job's page must
// list its recent checkpoints, newest first. A screenshot of the page is kept as a test artifact
// (build/test-artifacts/dashboard.png). Skipped when chromium is not installed
// (deploy/install-deps.sh --with-test-tools installs it).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "common/http/http_client.h"
#include "eddy/v1/rest.pb.h"
#include "google/protobuf/util/json_util.h"
#include "tests/integration/cluster_test.h"
#include "tests/integration/process_cluster.h"
#include "tests/util/eventually.h"

namespace eddy::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string Chromium() {
  for (const char* path : {"/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
    if (std::filesystem::exists(path)) return path;
  }
  return "";
}

// Chromium's flags for a page load in a container, as root, without a display.
std::vector<std::string> HeadlessArgs(const std::string& chromium, const std::string& profile) {
  return {chromium,
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-dev-shm-usage",
          "--no-first-run",
          "--user-data-dir=" + profile,
          "--virtual-time-budget=8000",
          "--window-size=1400,1000"};
}

class DashboardTest : public ClusterTest {
 protected:
  // The DOM Chromium rendered of the dashboard at `route` (e.g. "#/jobs/<id>") after a few
  // refreshes; "" (and a failure) when it could not run.
  std::string DumpDom(const std::string& chromium, const std::string& route) {
    const std::string url = "http://" + cluster_->topology().coordinator_host() + ":" +
                            std::to_string(cluster_->CoordinatorRestPort()) + "/" + route;
    std::vector<std::string> dump = HeadlessArgs(chromium, dir_ + "/chromium-dom");
    dump.push_back("--dump-dom");
    dump.push_back(url);
    Subprocess run = Subprocess::Start(dump, dir_ + "/dom.html", dir_ + "/chromium-dom.err");
    EXPECT_TRUE(run.started());
    if (!run.started()) return "";
    const int exit = run.Wait();
    EXPECT_EQ(exit, 0) << ReadFileToString(dir_ + "/chromium-dom.err");
    return exit == 0 ? ReadFileToString(dir_ + "/dom.html") : "";
  }
};

TEST_F(DashboardTest, TheJobPageDrawsTheGraphOfABackPressuredJobInChromium) {
  const std::string chromium = Chromium();
  if (chromium.empty()) GTEST_SKIP() << "chromium is not installed";
  ClusterOptions options{.workers = 2, .slots_per_worker = 2};
  ASSERT_NO_FATAL_FAILURE(PipeWorkerStdout(&options));  // never read: the print sink blocks
  ASSERT_NO_FATAL_FAILURE(StartCluster(options));
  RunResult r = Eddy(
      "SET 'parallelism.default' = '2';"
      "CREATE TEMPORARY TABLE wide (id BIGINT, pad STRING) WITH ('connector' = 'datagen', "
      "'fields.pad.length' = '1000');"
      "CREATE TEMPORARY TABLE out WITH ('connector' = 'print', 'sink.parallelism' = '1') "
      "LIKE wide (EXCLUDING OPTIONS);"
      "INSERT INTO out SELECT * FROM wide;");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string job = JobIdIn(r.err);
  const std::string host = cluster_->topology().coordinator_host();
  const int port = cluster_->CoordinatorRestPort();
  // The pipe is full and the sources wait for credit.
  ASSERT_TRUE(Eventually(
      [&] {
        auto resp = HttpGet(host, port, "/jobs/" + job);
        v1::RestJobDetails d;
        return resp.ok() && google::protobuf::util::JsonStringToMessage(resp->body, &d).ok() &&
               d.vertices_size() == 2 && d.vertices(0).back_pressured_ms() > 1000;
      },
      std::chrono::seconds(30)));

  const std::string url = "http://" + host + ":" + std::to_string(port) + "/#/jobs/" + job;
  const std::string dom = DumpDom(chromium, "#/jobs/" + job);
  ASSERT_FALSE(dom.empty());

  // The job, its state and its graph: two vertex boxes and the REBALANCE exchange between them,
  // the sources' box red (back-pressured at least half of the time).
  EXPECT_THAT(dom, HasSubstr("<span id=\"job-name\">")) << dom;
  EXPECT_THAT(dom, HasSubstr("state-RUNNING"));
  EXPECT_THAT(dom, HasSubstr("<svg class=\"dag\" id=\"job-dag\""));
  EXPECT_EQ(CountOccurrences(dom, "data-vertex=\""), 2) << dom;
  EXPECT_THAT(dom, HasSubstr("<g class=\"vertex bp-high\" data-vertex=\"0\""));
  EXPECT_THAT(dom, HasSubstr("data-vertex=\"1\""));
  EXPECT_THAT(dom, HasSubstr("data-from=\"0\" data-to=\"1\""));
  EXPECT_THAT(dom, HasSubstr(">REBALANCE<"));
  EXPECT_THAT(dom, HasSubstr("Parallelism: 2"));
  EXPECT_THAT(dom, HasSubstr("Parallelism: 1"));
  EXPECT_THAT(dom, HasSubstr("TableSourceScan"));
  EXPECT_THAT(dom, HasSubstr("Watermark: -"));  // no event time in this job
  EXPECT_THAT(dom, HasSubstr("id=\"job-plan\""));
  EXPECT_THAT(dom, Not(HasSubstr("Cannot reach the coordinator")));

  // The screenshot, kept after the test.
  const std::string artifacts = std::string(EDDY_BIN_DIR) + "/../test-artifacts";
  std::filesystem::create_directories(artifacts);
  const std::string png = artifacts + "/dashboard.png";
  std::filesystem::remove(png);
  std::vector<std::string> shot = HeadlessArgs(chromium, dir_ + "/chromium-shot");
  shot.push_back("--screenshot=" + png);
  shot.push_back(url);
  Subprocess shot_run =
      Subprocess::Start(shot, dir_ + "/chromium-shot.out", dir_ + "/chromium-shot.err");
  ASSERT_TRUE(shot_run.started());
  ASSERT_EQ(shot_run.Wait(), 0) << ReadFileToString(dir_ + "/chromium-shot.err");
  ASSERT_TRUE(std::filesystem::exists(png));
  EXPECT_GT(std::filesystem::file_size(png), 20000u);  // a rendered page, not a blank one
  std::cout << "dashboard screenshot: " << std::filesystem::canonical(png) << std::endl;
}

TEST_F(DashboardTest, TheJobPageListsTheRecentCheckpointsNewestFirst) {
  const std::string chromium = Chromium();
  if (chromium.empty()) GTEST_SKIP() << "chromium is not installed";
  ASSERT_NO_FATAL_FAILURE(StartCluster(ClusterOptions{.workers = 2, .slots_per_worker = 2}));
  RunResult r = Eddy(
      "SET 'execution.checkpointing.interval' = '1 s';"
      "SET 'parallelism.default' = '2';"
      "CREATE TEMPORARY TABLE seq (id BIGINT) WITH ('connector' = 'datagen', "
      "'rows-per-second' = '100', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
      "'fields.id.end' = '100000000');"
      "CREATE TEMPORARY TABLE hole (k BIGINT, c BIGINT) WITH ('connector' = 'blackhole');"
      "INSERT INTO hole SELECT id % 10, COUNT(*) FROM seq GROUP BY id % 10;");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string job = JobIdIn(r.err);
  v1::RestCheckpoints c;
  ASSERT_TRUE(Eventually(
      [&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        auto resp = HttpGet(cluster_->topology().coordinator_host(),
                            cluster_->CoordinatorRestPort(), "/jobs/" + job + "/checkpoints");
        return resp.ok() && google::protobuf::util::JsonStringToMessage(resp->body, &c).ok() &&
               c.completed() >= 3;
      },
      std::chrono::seconds(60)))
      << c.DebugString();

  const std::string dom = DumpDom(chromium, "#/jobs/" + job);
  ASSERT_FALSE(dom.empty());
  EXPECT_THAT(dom, HasSubstr("<table id=\"checkpoint-history\">")) << dom;
  EXPECT_THAT(dom, HasSubstr("<th>Alignment</th>"));
  // One row per checkpoint, newest first, ids one apart; every one completed but perhaps the
  // newest, acknowledged by the job's four subtasks (two sources, two aggregates).
  const std::regex row(
      "<tr class=\"checkpoint checkpoint-([A-Z_]+)\" data-checkpoint=\"([0-9]+)\">(.*?)</tr>");
  std::vector<int64_t> ids;
  int completed = 0;
  for (auto it = std::sregex_iterator(dom.begin(), dom.end(), row); it != std::sregex_iterator();
       ++it) {
    const std::string status = (*it)[1];
    ids.push_back(std::stoll((*it)[2]));
    if (status == "COMPLETED") {
      ++completed;
      EXPECT_THAT((*it)[3].str(), HasSubstr(">4/4<")) << (*it)[0];
    } else {
      EXPECT_EQ(status, "IN_PROGRESS");
      EXPECT_EQ(ids.size(), 1u) << "only the newest may still be in progress";
    }
  }
  ASSERT_GE(completed, 3) << dom;
  EXPECT_LE(ids.size(), 10u);
  EXPECT_GE(ids.front(), c.latest_id());  // the page is newer than what the test read
  for (size_t i = 1; i < ids.size(); ++i) EXPECT_EQ(ids[i], ids[i - 1] - 1);
  EXPECT_THAT(dom, Not(HasSubstr("Cannot reach the coordinator")));
}

}  // namespace
}  // namespace eddy::testing
