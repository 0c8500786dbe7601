// eddy-coordinator: plans SQL into jobs and schedules them on registered workers. Stops cleanly on
// SIGTERM/SIGINT.
#include <cstdio>
#include <string>

#include "absl/flags/flag.h"
#include "common/base/allowed_paths.h"
#include "common/base/logging.h"
#include "common/base/program_flags.h"
#include "common/base/signals.h"
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
