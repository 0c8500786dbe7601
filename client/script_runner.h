// Runs a SQL script through a coordinator, statement by statement, the way `eddy -f` does: status
// messages go to `messages` (stderr), results to `results` (stdout). Statements are split as the
// shell splits them and run one at a time, so an error's position counts from its statement's first
// line and the statements before a failing one have run. Stops at the first failing statement.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "client/client_settings.h"
#include "client/eddy_client.h"
#include "common/sql/ast.h"

namespace eddy {

struct ScriptOptions {
  // Wait for each bounded INSERT job before the next statement, and for every job at the end.
  // The embedded cluster always waits (it lives only as long as the script).
  bool wait_for_jobs = false;
  const std::atomic<bool>* interrupted = nullptr;  // set by a signal handler: cancel and stop
};

class ScriptRunner {
 public:
  ScriptRunner(EddyClient* client, ScriptOptions options, FILE* results, FILE* messages)
      : client_(client), options_(options), results_(results), messages_(messages) {}

  // Returns the first error (already printed to `messages`).
  absl::Status Run(const std::string& script);
  // An initialization script (`eddy -i FILE`, Flink's `-i`): sets the session up before the
  // script or the shell. Quiet when it succeeds; at the first failing statement everything it
  // printed is shown with the error. A query, an INSERT, a statement set or CREATE TABLE ... AS
  // SELECT (anything that starts a job) is an error naming it: `file` names the script.
  absl::Status RunInitialization(const std::string& script, const std::string& file);
  // One statement of an interactive session: errors are printed and returned, cancel only what
  // the statement started, and never end the session. Sets `quit` for QUIT/EXIT.
  absl::Status RunInteractive(const std::string& statement, bool* quit);
  // The input ended: an error (printed) when a statement set is still open, which drops its
  // INSERTs unsubmitted.
  absl::Status EndOfInput();
  // The end of a script: waits for the jobs still running when the options say so (saying so
  // first, since an unbounded job then runs until Ctrl-C).
  absl::Status FinishJobs();
  // The client's settings so far (the shell numbers continuation lines by them).
  const ClientSettings& settings() const { return settings_; }
  // The end of an interactive session (QUIT, end of input): never waits. Jobs still running are
  // named; on the embedded cluster, which stops with the shell, they are cancelled, and against a
  // cluster they keep running.
  void LeaveSession();

 private:
  absl::Status RunParsed(const sql::Statement& stmt, bool* quit);
  // The interactive form of a statement set: BEGIN STATEMENT SET; then INSERTs one at a time,
  // collected here; END; submits them as one job. Returns nullopt when `statement` is not part of
  // it (no set open, and neither BEGIN STATEMENT SET nor END).
  std::optional<absl::Status> RunStatementSetPart(const std::string& statement, bool* quit);
  absl::Status RunStatement(const std::string& text, int line, int column, bool* quit);
  // Waits until the job ends (on a terminal, showing its progress); a failed or cancelled job is
  // an error. `announce_finish`: then says "[INFO] Job <id> finished.".
  absl::Status WaitForJob(const std::string& job_id, bool announce_finish = true);
  // Pulls a SELECT's rows and prints them in the session's result mode until the query ends;
  // `started`: when the statement was sent (its time cost counts from then).
  absl::Status ShowQueryResult(const v1::ExecuteStatementResponse& query,
                               std::chrono::steady_clock::time_point started);
  void CancelRunningJobs();
  // running_jobs_ less those that already ended, with their names.
  std::vector<v1::JobInfo> StillRunningJobs();
  void CancelStatementJobs();

  EddyClient* client_;
  ScriptOptions options_;
  FILE* results_;
  FILE* messages_;
  ClientSettings settings_;
  std::string statement_job_;  // the job the current statement started, if any
  std::vector<std::string> running_jobs_;
  std::optional<std::vector<std::string>> open_set_;  // the INSERTs of an open statement set
};

}  // namespace eddy
