// The dashboard in a real browser: headless Chromium (Debian's `chromium`) loads the coordinator's
// page of a running job whose sink is blocked (its worker prints into a pipe nobody reads), and
// the DOM it rendered after a few refreshes must show the job and its graph: a box per vertex, an
// arrow per exchange, the sources' box red with back-pressure. A screenshot of the page is kept
// as a test artifact (build/test-artifacts/dashboard.png). Skipped when chromium is not installed
// (deploy/install-deps.sh --with-test-tools installs it).
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

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

TEST_F(DashboardTest, TheJobPageDrawsTheGraphOfABackPressuredJobInChromium) {
  const std::string chromium = Chromium();
  if (chromium.empty()) GTEST_SKIP() << "chromium is not installed";
  const std::string fifo_dir = FreshTestDir("dashboard-fifos");
  std::filesystem::create_directories(fifo_dir);
  ClusterOptions options{.workers = 2, .slots_per_worker = 2};
  std::vector<int> unread;
  for (int i = 0; i < options.workers; ++i) {
    const std::string fifo = fifo_dir + "/worker" + std::to_string(i) + ".fifo";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    unread.push_back(open(fifo.c_str(), O_RDONLY | O_NONBLOCK));  // so the workers can open it
    ASSERT_GE(unread.back(), 0);
    options.worker_stdout_paths.push_back(fifo);
  }
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
  std::vector<std::string> dump = HeadlessArgs(chromium, dir_ + "/chromium-dom");
  dump.push_back("--dump-dom");
  dump.push_back(url);
  Subprocess dom_run = Subprocess::Start(dump, dir_ + "/dom.html", dir_ + "/chromium-dom.err");
  ASSERT_TRUE(dom_run.started());
  const int dom_exit = dom_run.Wait();
  const std::string dom = ReadFileToString(dir_ + "/dom.html");
  ASSERT_EQ(dom_exit, 0) << ReadFileToString(dir_ + "/chromium-dom.err");

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

  cluster_.reset();  // the workers die before their pipes close
  for (int fd : unread) close(fd);
  std::filesystem::remove_all(fifo_dir);
}

}  // namespace
}  // namespace eddy::testing
