// What tests of the monitoring endpoints share: a ClusterTest that reads the coordinator's REST API
// (JSON parsed into its rest.proto message) and /metrics, and each worker's /metrics, and finds
// samples in the Prometheus text.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "common/http/http_client.h"
#include "common/http/http_server.h"
#include "google/protobuf/util/json_util.h"
#include "tests/integration/cluster_test.h"

namespace eddy::testing {

class ObservabilityTest : public ClusterTest {
 protected:
  HttpResponse Get(const std::string& path) {
    auto r =
        HttpGet(cluster_->topology().coordinator_host(), cluster_->CoordinatorRestPort(), path);
    EXPECT_TRUE(r.ok()) << path << ": " << r.status();
    return r.ok() ? *r : HttpResponse{.status = 0};
  }
  template <typename M>
  M GetJson(const std::string& path) {
    HttpResponse r = Get(path);
    EXPECT_EQ(r.status, 200) << path << ": " << r.body;
    EXPECT_THAT(r.content_type, ::testing::StartsWith("application/json")) << path;
    M m;
    EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(r.body, &m).ok()) << r.body;
    return m;
  }
  std::string WorkerMetrics(int i) {
    auto r =
        HttpGet(cluster_->topology().worker_host(i), cluster_->WorkerMetricsPort(i), "/metrics");
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? r->body : "";
  }
};

// The value of the sample of `name` whose labels include every `label="value"` in `labels`; -1
// when there is none.
inline double SampleValue(const std::string& text, const std::string& name,
                          const std::vector<std::string>& labels) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(name + "{", 0) != 0 && line.rfind(name + " ", 0) != 0) continue;
    bool all = true;
    for (const std::string& l : labels) all = all && line.find(l) != std::string::npos;
    if (!all) continue;
    return std::stod(line.substr(line.rfind(' ') + 1));
  }
  return -1;
}

// The sum of every sample of `name` with all `labels`.
inline double SampleSum(const std::string& text, const std::string& name,
                        const std::vector<std::string>& labels) {
  std::istringstream in(text);
  std::string line;
  double sum = 0;
  while (std::getline(in, line)) {
    if (line.rfind(name + "{", 0) != 0) continue;
    bool all = true;
    for (const std::string& l : labels) all = all && line.find(l) != std::string::npos;
    if (all) sum += std::stod(line.substr(line.rfind(' ') + 1));
  }
  return sum;
}

}  // namespace eddy::testing
