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
#include <sstream>
#include <thread>

#include "client/embedded/embedded_cluster.h"
#include "client/interactive_shell.h"
#include "client/script_runner.h"
#include "common/base/allowed_paths.h"
#include "common/base/flags.h"
#include "common/base/host_port.h"
#include "common/base/logging.h"

namespace {

std::atomic<bool> g_interrupted{false};
std::atomic<bool> g_hangup{false};

void OnSignal(int sig) {
  g_interrupted = true;
  if (sig == SIGHUP) g_hangup = true;
}

}  // namespace

int main(int argc, char** argv) {
  eddy::FlagSet flags;
  flags.Add("file", "", "run the SQL script in FILE");
  flags.AddAlias('f', "file");
  flags.Add("execute", "", "run the given SQL statements");
  flags.AddAlias('e', "execute");
  flags.Add("coordinator", "",
            "HOST[:PORT] of a running coordinator, port 8081 when omitted (default: an embedded "
            "cluster in this process)");
  flags.Add("workers", "1", "embedded cluster: number of workers");
  flags.Add("slots", "4", "embedded cluster: slots per worker");
  flags.Add("data-dir", "", "embedded cluster: data directory (default: a temporary one)");
  flags.Add(eddy::kFilesystemAllowedDirsFlag, eddy::DefaultFilesystemAllowedDir(),
            std::string("embedded cluster: ") + eddy::kFilesystemAllowedDirsHelp);
  flags.Add("session", "", "session id on the coordinator (default: a new one)");
  flags.Add("log-level", "warn", "trace, debug, info, warn, error, off");
  flags.Add("help", "", "show this help", true);
  if (auto code = flags.ParseOrExitCode(argc, argv, "eddy")) return *code;
  if (!flags.positional().empty()) {
    std::fprintf(stderr, "eddy: unexpected argument '%s' (see --help)\n",
                 flags.positional().front().c_str());
    return 2;
  }
  eddy::InitLogging(flags.Get("log-level"));

  std::string script;
  if (flags.IsSet("file") && flags.IsSet("execute")) {
    std::fprintf(stderr, "eddy: give either -f FILE or -e SQL, not both\n");
    return 2;
  }
  const bool interactive = !flags.IsSet("file") && !flags.IsSet("execute");
  if (flags.IsSet("file")) {
    std::ifstream in(flags.Get("file"));
    if (!in) {
      std::fprintf(stderr, "eddy: cannot read SQL file '%s'\n", flags.Get("file").c_str());
      return 2;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    script = ss.str();
  } else if (flags.IsSet("execute")) {
    script = flags.Get("execute");
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
  bool embedded = !flags.IsSet("coordinator");
  if (!embedded) {
    auto normalized =
        eddy::WithDefaultPort(flags.Get("coordinator"), eddy::kDefaultCoordinatorPort);
    if (!normalized.ok()) {
      std::fprintf(stderr, "eddy: --coordinator: %s\n",
                   std::string(normalized.status().message()).c_str());
      return 2;
    }
    address = *normalized;
  }
  if (embedded) {
    eddy::EmbeddedClusterOptions opts;
    auto workers = flags.IntOrReport("workers", "eddy");
    auto slots = flags.IntOrReport("slots", "eddy");
    if (!workers || !slots) return 2;
    opts.workers = *workers;
    opts.slots = *slots;
    opts.data_dir = flags.Get("data-dir");
    auto allowed = eddy::ParseFilesystemAllowedDirs(flags.Get(eddy::kFilesystemAllowedDirsFlag));
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
  std::string session = flags.Get("session");
  if (session.empty()) session = "cli-" + std::to_string(getpid());
  eddy::EddyClient client(address, session);
  eddy::ScriptOptions options;
  options.wait_for_jobs = embedded;
  options.interrupted = &g_interrupted;
  eddy::ScriptRunner runner(&client, options, stdout, stderr);
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
