// eddy-coordinator: plans SQL into jobs and schedules them on registered workers. Stops cleanly on
// SIGTERM/SIGINT.
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "absl/flags/flag.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "common/base/allowed_paths.h"
#include "common/base/duration.h"
#include "common/base/logging.h"
#include "common/base/program_flags.h"
#include "common/base/signals.h"
#include "common/http/http_server.h"
#include "coordinator/rest/rest_api.h"
#include "coordinator/service/coordinator_server.h"

ABSL_FLAG(int, port, 8081, "gRPC port for clients and workers (0 = any free port)");
ABSL_FLAG(std::string, bind_host, "0.0.0.0", "address to listen on");
ABSL_FLAG(std::string, data_dir, "/tmp/eddy-coordinator", "directory for the coordinator's data");
ABSL_FLAG(int, heartbeat_timeout_ms, 10000, "a worker silent for this long is lost");
ABSL_FLAG(std::string, filesystem_allowed_dirs, eddy::DefaultFilesystemAllowedDir(),
          eddy::kFilesystemAllowedDirsHelp);
ABSL_FLAG(std::string, checkpoints_dir, "",
          "default of state.checkpoints.dir: where jobs' checkpoints go, a directory every worker "
          "reaches at the same path (default: <data-dir>/checkpoints)");
ABSL_FLAG(std::string, jobstore_expiration_time, "3600",
          "how long a finished, failed or cancelled job stays listed (SHOW JOBS) and in the job "
          "store: seconds, or a duration such as 30 min (Flink's jobstore.expiration-time)");
ABSL_FLAG(int, jobstore_max_capacity, std::numeric_limits<int>::max(),
          "how many finished, failed or cancelled jobs are kept at most, the oldest pruned first "
          "(Flink's jobstore.max-capacity)");
ABSL_FLAG(int, rest_port, 8082,
          "HTTP port of the REST API and GET /metrics (0 = any free port, -1 = none; a port in "
          "use is logged and the coordinator runs without it)");
ABSL_FLAG(int, web_checkpoints_history, 10,
          "how many recent checkpoints of each job GET /jobs/<id>/checkpoints and the dashboard "
          "show (Flink's web.checkpoints.history)");
ABSL_FLAG(std::string, rest_token, "",
          "bearer token that allows POST /jobs/<id>/stop on the REST API (empty: read-only)");
ABSL_FLAG(bool, standby, false,
          "when another coordinator uses --data-dir, wait for it to end and take over instead of "
          "failing (a standby coordinator)");
ABSL_FLAG(std::string, log_level, "info", "trace, debug, info, warn, error, off");

int main(int argc, char** argv) {
  if (auto code = eddy::ParseFlagsOrExitCode(argc, argv, "eddy-coordinator")) return *code;
  eddy::InitLogging(absl::GetFlag(FLAGS_log_level));
  eddy::CoordinatorOptions opts;
  opts.port = absl::GetFlag(FLAGS_port);
  opts.heartbeat_timeout_ms = absl::GetFlag(FLAGS_heartbeat_timeout_ms);
  opts.bind_host = absl::GetFlag(FLAGS_bind_host);
  opts.data_dir = absl::GetFlag(FLAGS_data_dir);
  opts.checkpoints_dir = absl::GetFlag(FLAGS_checkpoints_dir);
  opts.standby = absl::GetFlag(FLAGS_standby);
  if (!opts.checkpoints_dir.empty() && opts.checkpoints_dir.front() != '/') {
    std::fprintf(stderr, "eddy-coordinator: --checkpoints-dir must be an absolute path, got '%s'\n",
                 opts.checkpoints_dir.c_str());
    return 2;
  }
  auto allowed = eddy::ParseFilesystemAllowedDirs(absl::GetFlag(FLAGS_filesystem_allowed_dirs));
  if (!allowed.ok()) {
    std::fprintf(stderr, "eddy-coordinator: %s\n", std::string(allowed.status().message()).c_str());
    return 2;
  }
  opts.filesystem_allowed_dirs = *allowed;
  // As Flink's jobstore.expiration-time: a bare number counts seconds.
  const std::string expiration = absl::GetFlag(FLAGS_jobstore_expiration_time);
  int64_t expiration_s = 0;
  std::optional<int64_t> expiration_ms;
  if (absl::SimpleAtoi(expiration, &expiration_s) && expiration_s >= 0 &&
      expiration_s <= std::numeric_limits<int64_t>::max() / 1000) {
    expiration_ms = expiration_s * 1000;
  } else {
    expiration_ms = eddy::ParseDurationMillis(std::string(absl::StripAsciiWhitespace(expiration)));
  }
  if (!expiration_ms || *expiration_ms < 0) {
    std::fprintf(stderr,
                 "eddy-coordinator: --jobstore-expiration-time must be seconds or a duration such "
                 "as '30 min', got '%s'\n",
                 expiration.c_str());
    return 2;
  }
  opts.job_retention.expiration = std::chrono::milliseconds(*expiration_ms);
  opts.job_retention.max_capacity = absl::GetFlag(FLAGS_jobstore_max_capacity);
  if (opts.job_retention.max_capacity < 0) {
    std::fprintf(stderr, "eddy-coordinator: --jobstore-max-capacity must be 0 or more, got %d\n",
                 opts.job_retention.max_capacity);
    return 2;
  }
  opts.checkpoint_history_size = absl::GetFlag(FLAGS_web_checkpoints_history);
  if (opts.checkpoint_history_size < 0) {
    std::fprintf(stderr, "eddy-coordinator: --web-checkpoints-history must be 0 or more, got %d\n",
                 opts.checkpoint_history_size);
    return 2;
  }
  const int rest_port = absl::GetFlag(FLAGS_rest_port);
  if (rest_port < -1 || rest_port > 65535) {
    std::fprintf(stderr, "eddy-coordinator: --rest-port must be a port, 0 or -1, got %d\n",
                 rest_port);
    return 2;
  }
  eddy::BlockTerminationSignals();
  auto server = eddy::CoordinatorServer::Start(opts);
  if (!server.ok()) {
    std::fprintf(stderr, "eddy-coordinator: %s\n", std::string(server.status().message()).c_str());
    return 1;
  }
  std::unique_ptr<eddy::RestApi> rest;
  std::unique_ptr<eddy::HttpServer> http;
  if (rest_port >= 0) {
    rest = std::make_unique<eddy::RestApi>(&(*server)->jobs(), &(*server)->registry(),
                                           eddy::RestOptions{absl::GetFlag(FLAGS_rest_token)});
    auto started = eddy::HttpServer::Start(
        opts.bind_host, rest_port,
        [api = rest.get()](const eddy::HttpRequest& req) { return api->Handle(req); });
    if (started.ok()) {
      http = std::move(*started);
      EDDY_LOG_INFO("coordinator REST API and metrics at http://{}:{}/", opts.bind_host,
                    http->port());
    } else {
      EDDY_LOG_WARN("coordinator runs without its REST API: {}",
                    std::string(started.status().message()));
    }
  }
  int sig = eddy::WaitForTerminationSignal();
  EDDY_LOG_INFO("coordinator received signal {}, shutting down", sig);
  if (http) http->Stop();
  (*server)->Shutdown();
  return 0;
}
