// eddy-worker: runs tasks deployed by the coordinator. Stops cleanly on SIGTERM/SIGINT.
#include <csignal>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>

#include "absl/flags/flag.h"
#include "common/base/allocator_tuning.h"
#include "common/base/allowed_paths.h"
#include "common/base/host_port.h"
#include "common/base/logging.h"
#include "common/base/program_flags.h"
#include "common/base/signals.h"
#include "common/http/http_server.h"
#include "common/http/prometheus_writer.h"
#include "worker/service/worker_server.h"

ABSL_FLAG(std::string, coordinator, "127.0.0.1:8081",
          "coordinator address HOST[:PORT] (port 8081 when omitted), or several separated by "
          "commas (an active coordinator and its standbys: the worker follows the one that "
          "listens)");
ABSL_FLAG(int, port, 9091, "gRPC port to listen on (0 = any free port)");
ABSL_FLAG(std::string, bind_host, "0.0.0.0", "address to listen on");
ABSL_FLAG(std::string, advertise_host, "",
          "host name or address other processes reach this worker at (default: this machine's "
          "hostname)");
ABSL_FLAG(int, slots, 4, "task slots offered to the coordinator");
ABSL_FLAG(std::string, data_dir, "/tmp/eddy-worker", "directory for RocksDB state");
ABSL_FLAG(int, managed_memory_mb, -1,
          "MiB of managed memory for keyed state: RocksDB's block cache and write buffers and the "
          "operators' state caches (-1 = a quarter of the memory this process may use)");
ABSL_FLAG(int, state_cache_mb, -1,
          "MiB of keyed state each stateful operator subtask keeps in memory in front of RocksDB "
          "(0 = none; -1 = its share of the managed memory)");
ABSL_FLAG(std::string, filesystem_allowed_dirs, eddy::DefaultFilesystemAllowedDir(),
          eddy::kFilesystemAllowedDirsHelp);
ABSL_FLAG(int, metrics_port, 9249,
          "HTTP port of GET /metrics in the Prometheus text format (0 = any free port, -1 = none; "
          "a port in use is logged and the worker runs without it)");
ABSL_FLAG(std::string, log_level, "info", "trace, debug, info, warn, error, off");

int main(int argc, char** argv) {
  if (auto code = eddy::ParseFlagsOrExitCode(argc, argv, "eddy-worker")) return *code;
  eddy::TuneAllocatorForBatches();
  eddy::InitLogging(absl::GetFlag(FLAGS_log_level));
  eddy::WorkerOptions opts;
  auto coordinator =
      eddy::WithDefaultPorts(absl::GetFlag(FLAGS_coordinator), eddy::kDefaultCoordinatorPort);
  if (!coordinator.ok()) {
    std::fprintf(stderr, "eddy-worker: --coordinator: %s\n",
                 std::string(coordinator.status().message()).c_str());
    return 2;
  }
  opts.coordinator_address = *coordinator;
  opts.bind_host = absl::GetFlag(FLAGS_bind_host);
  opts.advertise_host = absl::GetFlag(FLAGS_advertise_host);
  const int managed_mb = absl::GetFlag(FLAGS_managed_memory_mb);
  if (managed_mb < -1) {
    std::fprintf(stderr, "eddy-worker: --managed-memory-mb must be >= 0 (or -1), got %d\n",
                 managed_mb);
    return 2;
  }
  if (managed_mb >= 0) opts.managed_memory_bytes = static_cast<size_t>(managed_mb) << 20;
  const int cache_mb = absl::GetFlag(FLAGS_state_cache_mb);
  if (cache_mb < -1) {
    std::fprintf(stderr, "eddy-worker: --state-cache-mb must be >= 0 (or -1), got %d\n", cache_mb);
    return 2;
  }
  if (cache_mb >= 0) opts.state_cache_bytes = static_cast<size_t>(cache_mb) << 20;
  auto allowed = eddy::ParseFilesystemAllowedDirs(absl::GetFlag(FLAGS_filesystem_allowed_dirs));
  if (!allowed.ok()) {
    std::fprintf(stderr, "eddy-worker: %s\n", std::string(allowed.status().message()).c_str());
    return 2;
  }
  opts.filesystem_allowed_dirs = *allowed;
  opts.port = absl::GetFlag(FLAGS_port);
  opts.slots = absl::GetFlag(FLAGS_slots);
  opts.data_dir = absl::GetFlag(FLAGS_data_dir);
  const int metrics_port = absl::GetFlag(FLAGS_metrics_port);
  if (metrics_port < -1 || metrics_port > 65535) {
    std::fprintf(stderr, "eddy-worker: --metrics-port must be a port, 0 or -1, got %d\n",
                 metrics_port);
    return 2;
  }
  eddy::BlockTerminationSignals();
  auto worker = eddy::WorkerServer::Start(opts);
  if (!worker.ok()) {
    std::fprintf(stderr, "eddy-worker: %s\n", std::string(worker.status().message()).c_str());
    return 1;
  }
  std::unique_ptr<eddy::HttpServer> metrics;
  if (metrics_port >= 0) {
    eddy::WorkerServer* server = worker->get();
    auto http = eddy::HttpServer::Start(
        opts.bind_host, metrics_port, [server](const eddy::HttpRequest& req) {
          eddy::HttpResponse resp;
          if (req.path != "/metrics") {
            resp.status = 404;
            resp.body = "not found: " + req.path + " (this worker serves /metrics)\n";
            return resp;
          }
          resp.content_type = eddy::PrometheusWriter::kContentType;
          resp.body = server->MetricsText();
          return resp;
        });
    if (http.ok()) {
      metrics = std::move(*http);
      EDDY_LOG_INFO("worker metrics at http://{}:{}/metrics", opts.bind_host, metrics->port());
    } else {
      EDDY_LOG_WARN("worker runs without /metrics: {}", std::string(http.status().message()));
    }
  }
  int sig = eddy::WaitForTerminationSignal();
  EDDY_LOG_INFO("worker received signal {}, shutting down", sig);
  if (metrics) metrics->Stop();
  (*worker)->Shutdown();
  return 0;
}
