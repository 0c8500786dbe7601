#include "client/script_runner.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "client/statement_splitter.h"
#include "client/table_printer.h"
#include "client/table_result.h"
#include "common/base/status_macros.h"
#include "common/sql/parser.h"

namespace eddy {
namespace {

// The reason alone, or (sql-client.verbose) with the kind of error, the status code.
void PrintError(FILE* out, const absl::Status& s, bool verbose) {
  const std::string kind =
      verbose ? absl::StrCat(absl::StatusCodeToString(s.code()), ": ") : std::string();
  std::fprintf(out, "[ERROR] Could not execute SQL statement. Reason:\n%s%s\n", kind.c_str(),
               std::string(s.message()).c_str());
  std::fflush(out);
}

// RUNNING, RESTARTING, ... (the enum's name without its prefix), as SHOW JOBS prints it.
std::string JobStatusName(v1::JobStatus status) {
  std::string name = v1::JobStatus_Name(status);
  if (absl::StartsWith(name, "JOB_STATUS_")) name.erase(0, 11);
  return name;
}

// Rows the job's sources produced so far: the nodes without input rows.
int64_t RowsRead(const v1::JobInfo& info) {
  int64_t rows = 0;
  for (const v1::OperatorMetrics& op : info.operators()) {
    if (op.rows_in() == 0) rows += op.rows_out();
  }
  return rows;
}

// A statement as one upper-case line without its ';': "BEGIN STATEMENT SET".
std::string Normalized(const std::string& statement) {
  std::string out;
  for (char c : statement) {
    if (c == ';') continue;
    if (absl::ascii_isspace(static_cast<unsigned char>(c))) {
      if (!out.empty() && out.back() != ' ') out += ' ';
      continue;
    }
    out += absl::ascii_toupper(static_cast<unsigned char>(c));
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

absl::Status ScriptRunner::RunParsed(const sql::Statement& stmt, bool* quit) {
  absl::Status s = RunStatement(stmt.text, stmt.pos.line, stmt.pos.column, quit);
  if (!s.ok()) return s;
  settings_.Follow(stmt);
  return s;
}

absl::Status ScriptRunner::Run(const std::string& script) {
  // Statement by statement, as the shell reads them (so an error's position counts from its
  // statement's first line), stopping at the first that fails.
  bool quit = false;
  for (const std::string& statement : SplitStatements(script)) {
    if (options_.interrupted && options_.interrupted->load()) return FinishJobs();
    if (absl::Status s = RunInteractive(statement, &quit); !s.ok()) {
      CancelRunningJobs();
      return s;
    }
    if (quit) return FinishJobs();
  }
  if (absl::Status s = EndOfInput(); !s.ok()) {
    CancelRunningJobs();
    return s;
  }
  return FinishJobs();
}

absl::Status ScriptRunner::RunInitialization(const std::string& script, const std::string& file) {
  char* buffer = nullptr;
  size_t size = 0;
  FILE* quiet = open_memstream(&buffer, &size);
  if (quiet == nullptr) return absl::InternalError("cannot buffer the initialization's output");
  FILE* results = std::exchange(results_, quiet);
  FILE* messages = std::exchange(messages_, quiet);
  auto starts_job = [](const sql::Statement& stmt) {
    return stmt.kind == sql::StatementKind::kQuery || stmt.kind == sql::StatementKind::kInsert ||
           stmt.kind == sql::StatementKind::kStatementSet ||
           (stmt.kind == sql::StatementKind::kCreateTable && stmt.create_table &&
            stmt.create_table->as_query);
  };
  absl::Status status;
  for (const std::string& statement : SplitStatements(script)) {
    absl::StatusOr<std::vector<std::unique_ptr<sql::Statement>>> parsed =
        sql::ParseScript(statement);
    const bool set_begins = Normalized(statement) == "BEGIN STATEMENT SET";
    if (parsed.ok() && (set_begins || std::any_of(parsed->begin(), parsed->end(),
                                                  [&](const auto& s) { return starts_job(*s); }))) {
      status = absl::InvalidArgumentError(absl::StrCat(
          "The initialization file '", file,
          "' may not contain a query, an INSERT or anything else that starts a job (as Flink's "
          "SQL client): '",
          std::string(absl::StripAsciiWhitespace(statement)), "'"));
      PrintError(messages_, status, settings_.verbose);
      break;
    }
    bool quit = false;
    status = RunInteractive(statement, &quit);  // prints its own error
    if (!status.ok() || quit) break;
  }
  std::fclose(quiet);
  results_ = results;
  messages_ = messages;
  if (!status.ok()) {
    std::fwrite(buffer, 1, size, messages_);
    std::fflush(messages_);
  }
  std::free(buffer);
  return status;
}

absl::Status ScriptRunner::EndOfInput() {
  if (!open_set_) return absl::OkStatus();
  const size_t inserts = open_set_->size();
  open_set_.reset();
  absl::Status s = absl::InvalidArgumentError(absl::StrCat(
      "The input ended inside a statement set: \"BEGIN STATEMENT SET;\" has no \"END;\", so its ",
      inserts, " INSERT statement(s) were not submitted."));
  PrintError(messages_, s, settings_.verbose);
  return s;
}

std::optional<absl::Status> ScriptRunner::RunStatementSetPart(const std::string& statement,
                                                              bool* quit) {
  const std::string word = Normalized(statement);
  auto fail = [&](absl::Status s) {
    PrintError(messages_, s, settings_.verbose);
    return s;
  };
  if (!open_set_) {
    if (word != "BEGIN STATEMENT SET") return std::nullopt;
    open_set_.emplace();
    std::fputs("[INFO] Begin a statement set.\n", messages_);
    std::fflush(messages_);
    return absl::OkStatus();
  }
  if (word == "QUIT" || word == "EXIT") return std::nullopt;
  if (word == "END") {
    std::vector<std::string> inserts = std::move(*open_set_);
    open_set_.reset();
    if (inserts.empty()) {
      std::fputs("[INFO] No statement in the statement set, skip submit.\n", messages_);
      std::fflush(messages_);
      return absl::OkStatus();
    }
    std::string set = "BEGIN STATEMENT SET;\n";
    for (const std::string& insert : inserts) absl::StrAppend(&set, insert, ";\n");
    absl::StrAppend(&set, "END;");
    auto parsed = sql::ParseScript(set);
    if (!parsed.ok()) return fail(parsed.status());
    absl::Status s = RunParsed(*parsed->front(), quit);
    if (!s.ok()) {
      PrintError(messages_, s, settings_.verbose);
      CancelStatementJobs();
    }
    return s;
  }
  const absl::Status only_inserts =
      absl::InvalidArgumentError("Only INSERT statement is allowed in Statement Set.");
  if (word == "BEGIN STATEMENT SET") return fail(only_inserts);
  auto parsed = sql::ParseScript(statement);
  if (!parsed.ok()) return fail(parsed.status());
  if (parsed->size() != 1 || parsed->front()->kind != sql::StatementKind::kInsert) {
    return fail(only_inserts);
  }
  open_set_->push_back(parsed->front()->text);
  std::fputs("[INFO] Add SQL update statement to the statement set.\n", messages_);
  std::fflush(messages_);
  return absl::OkStatus();
}

absl::Status ScriptRunner::RunInteractive(const std::string& statement, bool* quit) {
  *quit = false;
  if (std::optional<absl::Status> s = RunStatementSetPart(statement, quit)) return *s;
  auto statements = sql::ParseScript(statement);
  if (!statements.ok()) {
    PrintError(messages_, statements.status(), settings_.verbose);
    return statements.status();
  }
  for (const auto& stmt : *statements) {
    absl::Status s = RunParsed(*stmt, quit);
    if (!s.ok()) {
      // Only what this statement started stops; the session goes on.
      PrintError(messages_, s, settings_.verbose);
      CancelStatementJobs();
      return s;
    }
    if (*quit) break;
  }
  return absl::OkStatus();
}

std::vector<v1::JobInfo> ScriptRunner::StillRunningJobs() {
  std::vector<v1::JobInfo> running;
  for (const auto& id : running_jobs_) {
    auto info = client_->GetJob(id);
    if (!info.ok() || IsFinalJobStatus(info->status())) continue;
    running.push_back(*std::move(info));
  }
  return running;
}

void ScriptRunner::LeaveSession() {
  std::vector<v1::JobInfo> running = StillRunningJobs();
  if (running.empty()) return;
  std::fprintf(messages_,
               options_.wait_for_jobs
                   ? "[INFO] Cancelling %zu job(s) still running on the embedded "
                     "cluster, which stops with this shell:\n"
                   : "[INFO] Leaving %zu job(s) running on the cluster:\n",
               running.size());
  for (const auto& job : running) {
    std::fprintf(messages_, "  %s  %s\n", job.job_id().c_str(), job.name().c_str());
  }
  std::fflush(messages_);
  if (options_.wait_for_jobs) CancelRunningJobs();
  running_jobs_.clear();
}

absl::Status ScriptRunner::FinishJobs() {
  if (options_.wait_for_jobs) {
    std::vector<v1::JobInfo> running = StillRunningJobs();
    if (!running.empty()) {
      std::fprintf(messages_,
                   "[INFO] Waiting for %zu job(s) still running on the embedded cluster; Ctrl-C "
                   "cancels them.\n",
                   running.size());
      std::fflush(messages_);
    }
    std::vector<std::string> jobs = running_jobs_;
    for (const auto& id : jobs) {
      absl::Status s = WaitForJob(id);
      if (!s.ok()) {
        PrintError(messages_, s, settings_.verbose);
        CancelRunningJobs();
        return s;
      }
    }
  }
  if (options_.interrupted && options_.interrupted->load()) {
    CancelRunningJobs();
    return absl::CancelledError("interrupted");
  }
  return absl::OkStatus();
}

absl::Status ScriptRunner::RunStatement(const std::string& text, int line, int column, bool* quit) {
  statement_job_.clear();
  std::string upper = absl::AsciiStrToUpper(text);
  if (upper == "QUIT" || upper == "EXIT") {
    *quit = true;
    return absl::OkStatus();
  }
  if (upper == "CLEAR") {
    // As the SQL client's CLEAR: clears the terminal screen; output that is not a terminal has no
    // screen to clear, and gets nothing.
    if (::isatty(::fileno(results_)) == 1) {
      std::fputs("\033[H\033[2J", results_);
      std::fflush(results_);
    }
    return absl::OkStatus();
  }
  if (upper == "HELP") {
    std::fputs(
        "Statements end with ';' and may span lines. Shell commands:\n"
        "  HELP;                 this text\n"
        "  QUIT; or EXIT;        leave the shell (so does end of input, Ctrl-D)\n"
        "  CLEAR;                clear the terminal screen\n"
        "SQL (docs/sql-reference.md):\n"
        "  CREATE [TEMPORARY] TABLE | VIEW | DATABASE ...; DROP ...; USE [CATALOG] ...;\n"
        "  SHOW CATALOGS | DATABASES | TABLES | VIEWS | JOBS | WORKERS; DESCRIBE t;\n"
        "  SELECT ...;           runs a query and shows its changing result (Ctrl-C stops it)\n"
        "  INSERT INTO t ...;    submits a job; EXECUTE STATEMENT SET BEGIN ...; END; submits one\n"
        "  BEGIN STATEMENT SET;  collects the INSERTs that follow until END; then submits them\n"
        "  EXPLAIN [CHANGELOG_MODE] ...; STOP JOB 'id';\n"
        "  CREATE MATERIALIZED TABLE t WITH (...) FRESHNESS = INTERVAL '1' MINUTE AS SELECT ...;\n"
        "  ALTER MATERIALIZED TABLE t SUSPEND | RESUME | REFRESH; DROP MATERIALIZED TABLE t;\n"
        "  CREATE MODEL m INPUT (...) OUTPUT (...) WITH ('provider' = '...'); SHOW MODELS;\n"
        "  ADD JAR '/path/lib.so'; REMOVE JAR '...'; SHOW JARS;  user function libraries\n"
        "  SET 'key' = 'value'; (quotes optional) RESET 'key'; SET;  e.g.\n"
        "                        'sql-client.execution.result-mode' =\n"
        "                        'tableau' | 'table' | 'changelog', 'table.dml-sync' = 'true'\n",
        results_);
    std::fflush(results_);
    return absl::OkStatus();
  }
  // Pad so that the coordinator's line/column positions match the script.
  std::string padded = std::string(line - 1, '\n') + std::string(column - 1, ' ') + text;
  const auto started = std::chrono::steady_clock::now();
  auto resp = client_->Execute(padded);
  if (!resp.ok()) return resp.status();
  switch (resp->kind()) {
    case v1::ExecuteStatementResponse::OK:
      std::fprintf(messages_, "[INFO] %s\n", resp->message().c_str());
      break;
    case v1::ExecuteStatementResponse::TABLE:
      std::fputs(FormatTextTable(resp->table()).c_str(), results_);
      std::fflush(results_);
      break;
    case v1::ExecuteStatementResponse::EXPLAIN:
    case v1::ExecuteStatementResponse::TEXT:
      // The plan is the statement's result: stdout, verbatim, as Flink's SQL client prints it.
      std::fputs(resp->message().c_str(), results_);
      std::fflush(results_);
      break;
    case v1::ExecuteStatementResponse::QUERY:
      return ShowQueryResult(*resp, started);
    case v1::ExecuteStatementResponse::JOB_SUBMITTED: {
      running_jobs_.push_back(resp->job_id());
      statement_job_ = resp->job_id();
      // With table.dml-sync the statement ends when its job does, and says only that (as Flink's
      // client).
      if (settings_.dml_sync) {
        RETURN_IF_ERROR(WaitForJob(resp->job_id(), /*announce_finish=*/false));
        std::fputs("[INFO] Complete execution of the SQL update statement.\n", messages_);
        break;
      }
      std::fprintf(
          messages_,
          "[INFO] Submitting SQL update statement to the cluster...\n[INFO] %s\nJob ID: %s\n",
          resp->message().c_str(), resp->job_id().c_str());
      std::fflush(messages_);
      if (options_.wait_for_jobs && resp->job_bounded()) return WaitForJob(resp->job_id());
      break;
    }
    default:
      break;
  }
  std::fflush(messages_);
  return absl::OkStatus();
}

absl::Status ScriptRunner::ShowQueryResult(const v1::ExecuteStatementResponse& query,
                                           std::chrono::steady_clock::time_point started) {
  const std::string& job_id = query.job_id();
  running_jobs_.push_back(job_id);
  statement_job_ = job_id;
  // An interrupt stops the query (the caller cancels its job), not the session.
  RETURN_IF_ERROR(TableResult(client_, query)
                      .Print(results_, options_.interrupted,
                             settings_.print_time_cost ? std::optional(started) : std::nullopt));
  std::erase(running_jobs_, job_id);
  return absl::OkStatus();
}

absl::Status ScriptRunner::WaitForJob(const std::string& job_id, bool announce_finish) {
  // On a terminal, one line that keeps saying how far the job got (rewritten in place, erased
  // before the job's last message); nothing of it when the messages go to a file or a pipe.
  const bool progress = ::isatty(::fileno(messages_)) == 1;
  const auto started = std::chrono::steady_clock::now();
  bool progress_shown = false;
  auto clear_progress = [&] {
    if (!progress_shown) return;
    std::fputs("\r\033[K", messages_);
    std::fflush(messages_);
    progress_shown = false;
  };
  while (true) {
    if (options_.interrupted && options_.interrupted->load()) {
      clear_progress();
      return absl::CancelledError("interrupted; jobs cancelled");
    }
    auto info = client_->WaitJob(job_id, 200);
    if (!info.ok()) {
      clear_progress();
      return info.status();
    }
    if (!IsFinalJobStatus(info->status())) {
      if (progress) {
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        std::fprintf(messages_, "\r\033[K[INFO] Job %s %s: %s rows read, %.1f s", job_id.c_str(),
                     JobStatusName(info->status()).c_str(), std::to_string(RowsRead(*info)).c_str(),
                     seconds);
        std::fflush(messages_);
        progress_shown = true;
      }
      continue;
    }
    clear_progress();
    std::erase(running_jobs_, job_id);
    if (info->status() == v1::JOB_STATUS_FAILED) {
      return absl::AbortedError(absl::StrCat("Job ", job_id, " failed: ", info->error()));
    }
    if (info->status() == v1::JOB_STATUS_CANCELED) {
      return absl::CancelledError(absl::StrCat("Job ", job_id, " was cancelled"));
    }
    if (announce_finish) std::fprintf(messages_, "[INFO] Job %s finished.\n", job_id.c_str());
    std::fflush(messages_);
    return absl::OkStatus();
  }
}

void ScriptRunner::CancelStatementJobs() {
  // A failed or interrupted statement's own job (a query, or an INSERT being waited for) is the
  // last one started; earlier INSERTs keep running.
  if (statement_job_.empty()) return;
  if (std::find(running_jobs_.begin(), running_jobs_.end(), statement_job_) !=
      running_jobs_.end()) {
    (void)client_->CancelJob(statement_job_);
    std::erase(running_jobs_, statement_job_);
  }
}

void ScriptRunner::CancelRunningJobs() {
  for (const auto& id : running_jobs_) (void)client_->CancelJob(id);
  running_jobs_.clear();
}

}  // namespace eddy
