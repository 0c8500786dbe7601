// The dashboard in a real browser: headless Chromium (Debian's `chromium`) loads the coordinator's
// page of a running job, and the DOM it rendered must show the job and its graph (a box per
// vertex, an arrow per exchange). A screenshot of the page is kept as a test artifact
// (build/test-artifacts/dashboard.png). Skipped when chromium is not installed
// (deploy/install-deps.sh --with-test-tools installs it).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <string>
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

class DashboardTest : public ClusterTest {};

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

TEST_F(DashboardTest, TheJobPageDrawsTheRunningJobsGraphInChromium) {
  const std::string chromium = Chromium();
  if (chromium.empty()) GTEST_SKIP() << "chromium is not installed";
  ASSERT_NO_FATAL_FAILURE(StartCluster(ClusterOptions{.workers = 2, .slots_per_worker = 2}));
  RunResult r = Eddy(
      "SET 'parallelism.default' = '2';"
      "CREATE TEMPORARY TABLE gen (k INT, v BIGINT) WITH ('connector' = 'datagen', "
      "'rows-per-second' = '2000', 'fields.k.min' = '1', 'fields.k.max' = '50');"
      "CREATE TEMPORARY TABLE hole (k INT, s BIGINT) WITH ('connector' = 'blackhole');"
      "INSERT INTO hole SELECT k, SUM(v) FROM gen GROUP BY k;");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string job = JobIdIn(r.err);
  ASSERT_EQ(cluster_->WaitForJobStatus(job, {"RUNNING"}, std::chrono::seconds(30)), "RUNNING");
  const std::string host = cluster_->topology().coordinator_host();
  const int port = cluster_->CoordinatorRestPort();
  // Rows reached the aggregate, so the page has counts to show.
  ASSERT_TRUE(Eventually(
      [&] {
        auto resp = HttpGet(host, port, "/jobs/" + job);
        v1::RestJobDetails d;
        return resp.ok() && google::protobuf::util::JsonStringToMessage(resp->body, &d).ok() &&
               d.vertices_size() == 2 && d.vertices(1).records_in() > 0;
      },
      std::chrono::seconds(30)));

  const std::string url = "http://" + host + ":" + std::to_string(port) + "/#/jobs/" + job;
  std::vector<std::string> dump = HeadlessArgs(chromium, dir_ + "/chromium-dom");
  dump.push_back("--dump-dom");
  dump.push_back(url);
  Subprocess dom_run = Subprocess::Start(dump, dir_ + "/dom.html", dir_ + "/chromium-dom.err");
  ASSERT_TRUE(dom_run.started());
  const int dom_exit = dom_run.Wait();
  const std::string dom = ReadFileToString(dir_ + "/dom.html");
  ASSERT_EQ(dom_exit, 0) << ReadFileToString(dir_ + "/chromium-dom.err");

  // The job, its state and its graph: two vertex boxes and the HASH exchange between them.
  EXPECT_THAT(dom, HasSubstr("<span id=\"job-name\">")) << dom;
  EXPECT_THAT(dom, HasSubstr("state-RUNNING"));
  EXPECT_THAT(dom, HasSubstr("<svg class=\"dag\" id=\"job-dag\""));
  EXPECT_EQ(CountOccurrences(dom, "data-vertex=\""), 2) << dom;
  EXPECT_THAT(dom, HasSubstr("data-vertex=\"0\""));
  EXPECT_THAT(dom, HasSubstr("data-vertex=\"1\""));
  EXPECT_THAT(dom, HasSubstr("data-from=\"0\" data-to=\"1\""));
  EXPECT_THAT(dom, HasSubstr(">HASH<"));
  EXPECT_THAT(dom, HasSubstr("Parallelism: 2"));
  EXPECT_THAT(dom, HasSubstr("GroupAggregate"));
  EXPECT_THAT(dom, HasSubstr("TableSourceScan"));
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

}  // namespace
}  // namespace eddy::testing
