// eddy-coordinator: plans SQL into jobs and schedules them on registered workers. Stops cleanly on
// SIGTERM/SIGINT.
#include <cstdio>

#include "common/base/allowed_paths.h"
#include "common/base/flags.h"
#include "common/base/logging.h"
#include "common/base/signals.h"
#include "coordinator/service/coordinator_server.h"

int main(int argc, char** argv) {
  eddy::FlagSet flags;
  flags.Add("port", "8081", "gRPC port for clients and workers (0 = any free port)");
  flags.Add("bind-host", "0.0.0.0", "address to listen on");
  flags.Add("data-dir", "/tmp/eddy-coordinator", "directory for the coordinator's data");
  flags.Add("heartbeat-timeout-ms", "10000", "a worker silent for this long is lost");
  flags.Add(eddy::kFilesystemAllowedDirsFlag, eddy::DefaultFilesystemAllowedDir(),
            eddy::kFilesystemAllowedDirsHelp);
  flags.Add("checkpoints-dir", "",
            "default of state.checkpoints.dir: where jobs' checkpoints go, a directory every "
            "worker reaches at the same path (default: <data-dir>/checkpoints)");
  flags.Add("log-level", "info", "trace, debug, info, warn, error, off");
  flags.Add("help", "", "show this help", true);
  if (auto code = flags.ParseOrExitCode(argc, argv, "eddy-coordinator")) return *code;
  eddy::InitLogging(flags.Get("log-level"));
  eddy::CoordinatorOptions opts;
  auto port = flags.IntOrReport("port", "eddy-coordinator");
  auto timeout = flags.IntOrReport("heartbeat-timeout-ms", "eddy-coordinator");
  if (!port || !timeout) return 2;
  opts.port = *port;
  opts.heartbeat_timeout_ms = *timeout;
  opts.bind_host = flags.Get("bind-host");
  opts.data_dir = flags.Get("data-dir");
  opts.checkpoints_dir = flags.Get("checkpoints-dir");
  if (!opts.checkpoints_dir.empty() && opts.checkpoints_dir.front() != '/') {
    std::fprintf(stderr, "eddy-coordinator: --checkpoints-dir must be an absolute path, got '%s'\n",
                 opts.checkpoints_dir.c_str());
    return 2;
  }
  auto allowed = eddy::ParseFilesystemAllowedDirs(flags.Get(eddy::kFilesystemAllowedDirsFlag));
  if (!allowed.ok()) {
    std::fprintf(stderr, "eddy-coordinator: %s\n", std::string(allowed.status().message()).c_str());
    return 2;
  }
  opts.filesystem_allowed_dirs = *allowed;
  eddy::BlockTerminationSignals();
  auto server = eddy::CoordinatorServer::Start(opts);
  if (!server.ok()) {
    std::fprintf(stderr, "eddy-coordinator: %s\n", std::string(server.status().message()).c_str());
    return 1;
  }
  int sig = eddy::WaitForTerminationSignal();
  EDDY_LOG_INFO("coordinator received signal {}, shutting down", sig);
  (*server)->Shutdown();
  return 0;
}
