// eddy-worker: runs tasks deployed by the coordinator. Stops cleanly on SIGTERM/SIGINT.
#include <csignal>
#include <cstdio>
#include <thread>

#include "common/base/allowed_paths.h"
#include "common/base/flags.h"
#include "common/base/host_port.h"
#include "common/base/logging.h"
#include "common/base/signals.h"
#include "worker/service/worker_server.h"

int main(int argc, char** argv) {
  eddy::FlagSet flags;
  flags.Add("coordinator", "127.0.0.1:8081",
            "coordinator address HOST[:PORT] (port 8081 when omitted)");
  flags.Add("port", "9091", "gRPC port to listen on (0 = any free port)");
  flags.Add("bind-host", "0.0.0.0", "address to listen on");
  flags.Add("advertise-host", "", "host name or address other processes reach this worker at "
                                  "(default: this machine's hostname)");
  flags.Add("slots", "4", "task slots offered to the coordinator");
  flags.Add("data-dir", "/tmp/eddy-worker", "directory for RocksDB state");
  flags.Add("state-cache-mb", "32",
            "MiB of hot keyed state each aggregate subtask caches in memory in front of RocksDB "
            "(0 = none)");
  flags.Add(eddy::kFilesystemAllowedDirsFlag, eddy::DefaultFilesystemAllowedDir(),
            eddy::kFilesystemAllowedDirsHelp);
  flags.Add("log-level", "info", "trace, debug, info, warn, error, off");
  flags.Add("help", "", "show this help", true);
  if (auto code = flags.ParseOrExitCode(argc, argv, "eddy-worker")) return *code;
  eddy::InitLogging(flags.Get("log-level"));
  eddy::WorkerOptions opts;
  auto coordinator = eddy::WithDefaultPort(flags.Get("coordinator"), eddy::kDefaultCoordinatorPort);
  if (!coordinator.ok()) {
    std::fprintf(stderr, "eddy-worker: --coordinator: %s\n",
                 std::string(coordinator.status().message()).c_str());
    return 2;
  }
  opts.coordinator_address = *coordinator;
  opts.bind_host = flags.Get("bind-host");
  opts.advertise_host = flags.Get("advertise-host");
  auto port = flags.IntOrReport("port", "eddy-worker");
  auto slots = flags.IntOrReport("slots", "eddy-worker");
  auto cache_mb = flags.IntOrReport("state-cache-mb", "eddy-worker");
  if (!port || !slots || !cache_mb) return 2;
  if (*cache_mb < 0) {
    std::fprintf(stderr, "eddy-worker: --state-cache-mb must be >= 0, got %d\n", *cache_mb);
    return 2;
  }
  opts.state_cache_bytes = static_cast<size_t>(*cache_mb) << 20;
  auto allowed = eddy::ParseFilesystemAllowedDirs(flags.Get(eddy::kFilesystemAllowedDirsFlag));
  if (!allowed.ok()) {
    std::fprintf(stderr, "eddy-worker: %s\n", std::string(allowed.status().message()).c_str());
    return 2;
  }
  opts.filesystem_allowed_dirs = *allowed;
  opts.port = *port;
  opts.slots = *slots;
  opts.data_dir = flags.Get("data-dir");
  eddy::BlockTerminationSignals();
  auto worker = eddy::WorkerServer::Start(opts);
  if (!worker.ok()) {
    std::fprintf(stderr, "eddy-worker: %s\n", std::string(worker.status().message()).c_str());
    return 1;
  }
  int sig = eddy::WaitForTerminationSignal();
  EDDY_LOG_INFO("worker received signal {}, shutting down", sig);
  (*worker)->Shutdown();
  return 0;
}
