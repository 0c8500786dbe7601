// The monitoring HTTP server, client, Prometheus writer and process metrics, over real sockets.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/http/http_client.h"
#include "common/http/http_server.h"
#include "common/http/process_metrics.h"
#include "common/http/prometheus_writer.h"

namespace eddy {
namespace {

using ::testing::HasSubstr;

TEST(HttpServerTest, ServesRequestsWithPathQueryHeadersAndBody) {
  HttpRequest seen;
  auto server = HttpServer::Start("127.0.0.1", 0, [&](const HttpRequest& req) {
    seen = req;
    HttpResponse r;
    r.status = req.path == "/missing" ? 404 : 200;
    r.content_type = "application/json";
    r.body = "{\"path\":\"" + req.path + "\"}";
    return r;
  });
  ASSERT_TRUE(server.ok()) << server.status();
  ASSERT_GT((*server)->port(), 0);

  HttpClientRequest req;
  req.method = "POST";
  req.path = "/jobs/abc/stop?mode=x";
  req.headers["Authorization"] = "Bearer t0k";
  req.body = "payload";
  auto resp = HttpFetch("127.0.0.1", (*server)->port(), req);
  ASSERT_TRUE(resp.ok()) << resp.status();
  EXPECT_EQ(resp->status, 200);
  EXPECT_EQ(resp->content_type, "application/json");
  EXPECT_EQ(resp->body, "{\"path\":\"/jobs/abc/stop\"}");
  EXPECT_EQ(seen.method, "POST");
  EXPECT_EQ(seen.path, "/jobs/abc/stop");
  EXPECT_EQ(seen.query, "mode=x");
  EXPECT_EQ(seen.Header("authorization"), "Bearer t0k");
  EXPECT_EQ(seen.body, "payload");

  auto missing = HttpGet("127.0.0.1", (*server)->port(), "/missing");
  ASSERT_TRUE(missing.ok());
  EXPECT_EQ(missing->status, 404);
  (*server)->Stop();
  EXPECT_FALSE(HttpGet("127.0.0.1", (*server)->port(), "/").ok());
}

TEST(HttpServerTest, MalformedRequestIsBadRequest) {
  auto server =
      HttpServer::Start("127.0.0.1", 0, [](const HttpRequest&) { return HttpResponse{}; });
  ASSERT_TRUE(server.ok());
  HttpClientRequest req;
  req.path = "no-slash";
  auto resp = HttpFetch("127.0.0.1", (*server)->port(), req);
  ASSERT_TRUE(resp.ok()) << resp.status();
  EXPECT_EQ(resp->status, 400);
}

TEST(HttpServerTest, BusyPortIsAnErrorNamingIt) {
  auto first = HttpServer::Start("127.0.0.1", 0, [](const HttpRequest&) { return HttpResponse{}; });
  ASSERT_TRUE(first.ok());
  auto second = HttpServer::Start("127.0.0.1", (*first)->port(),
                                  [](const HttpRequest&) { return HttpResponse{}; });
  ASSERT_FALSE(second.ok());
  EXPECT_THAT(std::string(second.status().message()),
              HasSubstr("127.0.0.1:" + std::to_string((*first)->port())));
}

TEST(PrometheusWriterTest, GroupsSamplesByFamilyAndEscapesLabels) {
  PrometheusWriter w;
  w.Family("eddy_a_total", PrometheusWriter::Type::kCounter, "A things.");
  w.Family("eddy_b", PrometheusWriter::Type::kGauge, "B level.");
  w.Sample("eddy_a_total", {{"job", "j1"}}, int64_t{3});
  w.Sample("eddy_b", {}, 0.5);
  w.Sample("eddy_a_total", {{"job", "a\"b\\c\nd"}}, uint64_t{12345678901234});
  EXPECT_EQ(w.Finish(),
            "# HELP eddy_a_total A things.\n"
            "# TYPE eddy_a_total counter\n"
            "eddy_a_total{job=\"j1\"} 3\n"
            "eddy_a_total{job=\"a\\\"b\\\\c\\nd\"} 12345678901234\n"
            "# HELP eddy_b B level.\n"
            "# TYPE eddy_b gauge\n"
            "eddy_b 0.5\n");
}

TEST(ProcessMetricsTest, ReadsThisProcess) {
  ProcessStats s = ReadProcessStats();
  EXPECT_GT(s.resident_bytes, 1 << 20);
  EXPECT_GE(s.threads, 1);
  EXPECT_GT(s.open_fds, 2);
  EXPECT_GT(s.start_time_seconds, 1.6e9);
  PrometheusWriter w;
  WriteProcessMetrics(&w);
  EXPECT_THAT(w.Finish(), HasSubstr("# TYPE process_cpu_seconds_total counter\n"));
}

}  // namespace
}  // namespace eddy
