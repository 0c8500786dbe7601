// The REST API's routing, errors and authentication on an empty cluster (the answers about
// running jobs are checked against real processes in tests/integration/observability_test.cc).
#include "coordinator/rest/rest_api.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "eddy/v1/rest.pb.h"
#include "google/protobuf/util/json_util.h"

namespace eddy {
namespace {

using ::testing::HasSubstr;

template <typename M>
M Parse(const HttpResponse& r) {
  M m;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(r.body, &m).ok()) << r.body;
  return m;
}

class RestApiTest : public ::testing::Test {
 protected:
  HttpResponse Call(const std::string& method, const std::string& path,
                    const std::string& auth = "") {
    HttpRequest req;
    req.method = method;
    req.path = path;
    if (!auth.empty()) req.headers["authorization"] = auth;
    return api_.Handle(req);
  }

  WorkerRegistry registry_{std::chrono::milliseconds(10000)};
  JobManager jobs_{&registry_};
  RestApi api_{&jobs_, &registry_, RestOptions{"s3cret"}};
};

TEST_F(RestApiTest, OverviewOfAnEmptyClusterPrintsEveryField) {
  HttpResponse r = Call("GET", "/overview");
  EXPECT_EQ(r.status, 200);
  EXPECT_THAT(r.content_type, HasSubstr("application/json"));
  EXPECT_THAT(r.body, HasSubstr("\"workers\":0"));
  EXPECT_THAT(r.body, HasSubstr("\"jobs_running\":0"));
  v1::RestOverview o = Parse<v1::RestOverview>(r);
  EXPECT_EQ(o.slots_total(), 0);
  EXPECT_EQ(Call("GET", "/v1/overview").body, r.body);  // Flink's versioned prefix
}

TEST_F(RestApiTest, UnknownJobIsNotFoundWithAnErrorList) {
  HttpResponse r = Call("GET", "/jobs/0123");
  EXPECT_EQ(r.status, 404);
  v1::RestError e = Parse<v1::RestError>(r);
  ASSERT_EQ(e.errors_size(), 1);
  EXPECT_EQ(e.errors(0), "job '0123' not found");
  EXPECT_EQ(Call("GET", "/jobs/0123/plan").status, 404);
  EXPECT_EQ(Call("GET", "/jobs/0123/checkpoints").status, 404);
  EXPECT_EQ(Call("GET", "/jobs/0123/exceptions").status, 404);
  EXPECT_EQ(Call("GET", "/nothing/here").status, 404);
}

TEST_F(RestApiTest, WritesNeedPostAndTheToken) {
  EXPECT_EQ(Call("GET", "/jobs/0123/stop").status, 405);
  EXPECT_EQ(Call("DELETE", "/jobs").status, 405);
  HttpResponse no_auth = Call("POST", "/jobs/0123/stop");
  EXPECT_EQ(no_auth.status, 401);
  EXPECT_EQ(no_auth.headers["WWW-Authenticate"], "Bearer");
  EXPECT_EQ(Call("POST", "/jobs/0123/stop", "Bearer wrong!").status, 401);
  EXPECT_EQ(Call("POST", "/jobs/0123/stop", "Basic s3cret").status, 401);
  // Authenticated: the job id is what is wrong now.
  EXPECT_EQ(Call("POST", "/jobs/0123/stop", "Bearer s3cret").status, 404);
}

TEST_F(RestApiTest, WithoutATokenTheApiIsReadOnly) {
  RestApi read_only(&jobs_, &registry_, RestOptions{});
  HttpRequest req;
  req.method = "POST";
  req.path = "/jobs/0123/stop";
  req.headers["authorization"] = "Bearer ";
  HttpResponse r = read_only.Handle(req);
  EXPECT_EQ(r.status, 403);
  EXPECT_THAT(Parse<v1::RestError>(r).errors(0), HasSubstr("--rest-token"));
}

TEST_F(RestApiTest, MetricsListJobsByStatusAndWorkers) {
  HttpResponse r = Call("GET", "/metrics");
  EXPECT_EQ(r.status, 200);
  EXPECT_THAT(r.content_type, HasSubstr("version=0.0.4"));
  EXPECT_THAT(r.body, HasSubstr("eddy_coordinator_jobs{status=\"RUNNING\"} 0\n"));
  EXPECT_THAT(r.body, HasSubstr("eddy_coordinator_workers 0\n"));
  EXPECT_THAT(r.body, HasSubstr("process_resident_memory_bytes "));
}

TEST_F(RestApiTest, ServesTheDashboardsFilesFromTheBinary) {
  HttpResponse page = Call("GET", "/");
  EXPECT_EQ(page.status, 200);
  EXPECT_THAT(page.content_type, HasSubstr("text/html"));
  EXPECT_THAT(page.body, HasSubstr("<script src=\"/dashboard.js\"></script>"));
  HttpResponse js = Call("GET", "/dashboard.js");
  EXPECT_THAT(js.content_type, HasSubstr("javascript"));
  EXPECT_THAT(js.body, HasSubstr("function dag(job"));
  HttpResponse css = Call("GET", "/dashboard.css");
  EXPECT_THAT(css.content_type, HasSubstr("text/css"));
  EXPECT_THAT(css.body, HasSubstr(".vertex rect"));
}

}  // namespace
}  // namespace eddy
