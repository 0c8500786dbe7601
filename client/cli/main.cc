// eddy: the command-line client. `eddy -f job.sql` or `eddy -e 'STMT; ...'` runs statements against
// the coordinator at --coordinator, or, without it, on an embedded cluster started in this process.
// Without -f/-e it is an interactive shell (interactive_shell.h) reading the terminal or stdin.
// Print-sink rows and results go to stdout; status messages and errors to stderr.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "client/embedded/embedded_cluster.h"
#include "client/interactive_shell.h"
#include "client/script_runner.h"
#include "common/base/allocator_tuning.h"
#include "common/base/allowed_paths.h"
#include "common/base/host_port.h"
#include "common/base/logging.h"
#include "common/base/program_flags.h"

ABSL_FLAG(std::optional<std::string>, file, std::nullopt, "run the SQL script in FILE");
ABSL_FLAG(std::optional<std::string>, execute, std::nullopt, "run the given SQL statements");
ABSL_FLAG(std::optional<std::string>, init, std::nullopt,
          "run the SQL script in FILE first to set the session up (DDL, SET, USE, ...; no queries "
          "or INSERTs), quietly unless it fails, then the -f/-e script or the shell");
ABSL_FLAG(std::optional<std::string>, coordinator, std::nullopt,
          "HOST[:PORT] of a running coordinator, port 8081 when omitted, or several separated by "
          "commas (an active coordinator and its standbys) (default: an embedded cluster in this "
          "process)");
ABSL_FLAG(int, workers, 1, "embedded cluster: number of workers");
ABSL_FLAG(int, slots, 4, "embedded cluster: slots per worker");
ABSL_FLAG(std::optional<int>, managed_memory_mb, std::nullopt,
          "embedded cluster: each worker's managed memory for keyed state in MiB (default: a "
          "quarter of this process's memory, divided among the workers)");
ABSL_FLAG(std::string, data_dir, "", "embedded cluster: data directory (default: a temporary one)");
ABSL_FLAG(std::string, filesystem_allowed_dirs, eddy::DefaultFilesystemAllowedDir(),
          absl::StrCat("embedded cluster: ", eddy::kFilesystemAllowedDirsHelp));
ABSL_FLAG(std::string, session, "", "session id on the coordinator (default: a new one)");
ABSL_FLAG(std::string, log_level, "warn", "trace, debug, info, warn, error, off");

namespace {

// -f FILE, -e SQL and -i FILE: the one-letter spellings of --file, --execute and --init.
constexpr eddy::FlagAlias kAliases[] = {{'f', "file"}, {'e', "execute"}, {'i', "init"}};

std::atomic<bool> g_interrupted{false};
std::atomic<bool> g_hangup{false};

void OnSignal(int sig) {
  g_interrupted = true;
  if (sig == SIGHUP) g_hangup = true;
}

}  // namespace

int main(int argc, char** argv) {
  if (auto code = eddy::ParseFlagsOrExitCode(argc, argv, "eddy", kAliases)) return *code;
  eddy::TuneAllocatorForBatches();  // the embedded cluster runs tasks in this process
  eddy::InitLogging(absl::GetFlag(FLAGS_log_level));

  const std::optional<std::string> file = absl::GetFlag(FLAGS_file);
  const std::optional<std::string> execute = absl::GetFlag(FLAGS_execute);
  std::string script;
  if (file && execute) {
    std::fprintf(stderr, "eddy: give either -f FILE or -e SQL, not both\n");
    return 2;
  }
  const bool interactive = !file && !execute;
  auto read_file = [](const std::string& path, std::string* text) {
    std::ifstream in(path);
    if (!in) {
      std::fprintf(stderr, "eddy: cannot read SQL file '%s'\n", path.c_str());
      return false;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    *text = ss.str();
    return true;
  };
  const std::optional<std::string> init = absl::GetFlag(FLAGS_init);
  std::string init_script;
  if (init && !read_file(*init, &init_script)) return 2;
  if (file) {
    if (!read_file(*file, &script)) return 2;
  } else if (execute) {
    script = *execute;
  }

  // Ctrl-C, SIGTERM and a closed terminal (SIGHUP) all stop what runs and leave cleanly, so the
  // embedded cluster's temporary directory is removed.
  struct sigaction sa = {};
  sa.sa_handler = OnSignal;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGHUP, &sa, nullptr);

  std::unique_ptr<eddy::EmbeddedCluster> cluster;
  std::string address;
  const std::optional<std::string> coordinator = absl::GetFlag(FLAGS_coordinator);
  const bool embedded = !coordinator;
  if (!embedded) {
    auto normalized = eddy::WithDefaultPorts(*coordinator, eddy::kDefaultCoordinatorPort);
    if (!normalized.ok()) {
      std::fprintf(stderr, "eddy: --coordinator: %s\n",
                   std::string(normalized.status().message()).c_str());
      return 2;
    }
    address = *normalized;
  }
  const std::optional<int> managed_mb = absl::GetFlag(FLAGS_managed_memory_mb);
  if (managed_mb && (!embedded || *managed_mb < 0)) {
    std::fprintf(
        stderr, "eddy: --managed-memory-mb %s\n",
        embedded ? "must be >= 0" : "applies to the embedded cluster, not to --coordinator");
    return 2;
  }
  if (embedded) {
    eddy::EmbeddedClusterOptions opts;
    opts.workers = absl::GetFlag(FLAGS_workers);
    opts.slots = absl::GetFlag(FLAGS_slots);
    if (managed_mb) opts.managed_memory_bytes = static_cast<size_t>(*managed_mb) << 20;
    opts.data_dir = absl::GetFlag(FLAGS_data_dir);
    auto allowed = eddy::ParseFilesystemAllowedDirs(absl::GetFlag(FLAGS_filesystem_allowed_dirs));
    if (!allowed.ok()) {
      std::fprintf(stderr, "eddy: %s\n", std::string(allowed.status().message()).c_str());
      return 2;
    }
    opts.filesystem_allowed_dirs = *allowed;
    auto started = eddy::EmbeddedCluster::Start(opts);
    if (!started.ok()) {
      std::fprintf(stderr, "eddy: cannot start the embedded cluster: %s\n",
                   std::string(started.status().message()).c_str());
      return 1;
    }
    cluster = std::move(*started);
    address = cluster->coordinator_address();
  }
  std::string session = absl::GetFlag(FLAGS_session);
  if (session.empty()) session = "cli-" + std::to_string(getpid());
  eddy::EddyClient client(address, session);
  eddy::ScriptOptions options;
  options.wait_for_jobs = embedded;
  options.interrupted = &g_interrupted;
  eddy::ScriptRunner runner(&client, options, stdout, stderr);
  if (init && !runner.RunInitialization(init_script, *init).ok()) {
    if (cluster) cluster->Shutdown();
    return 1;
  }
  if (interactive) {
    // A terminal gets line editing and history; a pipe is read line by line, no prompt.
    std::unique_ptr<eddy::LineReader> reader;
    if (isatty(STDIN_FILENO)) {
      const char* home = std::getenv("HOME");
      reader = eddy::MakeTerminalReader(home ? std::string(home) + "/.eddy_history" : "",
                                        &g_interrupted);
    } else {
      reader = eddy::MakeStreamReader(stdin);
    }
    eddy::ShellOptions shell;
    shell.banner = isatty(STDIN_FILENO);
    shell.interrupted = &g_interrupted;
    shell.hangup = &g_hangup;
    int code = eddy::RunShell(&runner, reader.get(), shell, stderr);
    std::fflush(stdout);
    if (cluster) cluster->Shutdown();
    return code;
  }
  absl::Status status = runner.Run(script);
  std::fflush(stdout);
  if (cluster) cluster->Shutdown();
  if (g_interrupted) return 130;
  return status.ok() ? 0 : 1;
}
