#include "coordinator/service/compiled_plan.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/base/allowed_paths.h"
#include "common/base/status_macros.h"
#include "coordinator/planner/config_values.h"
#include "eddy/v1/compiled_plan.pb.h"
#include "google/protobuf/util/json_util.h"

namespace eddy {
namespace {

// `path` (a local path or a file:// URI) made canonical and checked against the allowed
// directories, as a filesystem table's path is.
absl::StatusOr<std::string> PlanFilePath(const std::string& path,
                                         const std::vector<std::string>& allowed_dirs) {
  std::string local = path;
  if (absl::StartsWith(local, "file://")) local = local.substr(7);
  if (local.find("://") != std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat("Validation error: plan file '", path,
                                                   "': only local or mounted paths (a path or "
                                                   "file://...) are supported"));
  }
  if (local.empty()) {
    return absl::InvalidArgumentError("Validation error: the plan file's path is empty");
  }
  auto canonical = CanonicalFilesystemPath(local);
  if (!canonical.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Validation error: plan file '", path, "': ", canonical.status().message()));
  }
  if (!IsUnderAllowedDir(*canonical, allowed_dirs)) {
    return absl::InvalidArgumentError(absl::StrCat("Validation error: plan file '", path,
                                                   "' is outside ",
                                                   AllowedDirsOf("server", allowed_dirs)));
  }
  return *canonical;
}

absl::StatusOr<PlannedJob> ReadPlanFile(const std::string& path, const std::string& given) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(
        absl::StrCat("Cannot load the plan file '", given, "': ", std::strerror(errno)));
  }
  std::stringstream text;
  text << in.rdbuf();
  return ParseCompiledPlan(text.str(), absl::StrCat("the plan file '", given, "'"));
}

// Written to a temporary file beside it and renamed over it, so that a plan file is never seen
// half written and a shorter plan never leaves the tail of a longer one behind.
absl::Status WritePlanFile(const std::string& path, const std::string& given,
                           const std::string& json) {
  const std::filesystem::path file(path);
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  const std::string temporary = absl::StrCat(path, ".inprogress");
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << json;
    out.flush();
    if (!out) {
      return absl::InternalError(
          absl::StrCat("Cannot write the compiled plan to file '", given, "'."));
    }
  }
  std::filesystem::rename(temporary, file, ec);
  if (ec) {
    std::filesystem::remove(temporary, ec);
    return absl::InternalError(
        absl::StrCat("Cannot write the compiled plan to file '", given, "': ", ec.message()));
  }
  return absl::OkStatus();
}

absl::StatusOr<PlannedJob> Compile(const sql::CompiledPlanStatement& statement, Session& session) {
  std::vector<const sql::Insert*> inserts;
  for (const sql::Insert& insert : statement.inserts) inserts.push_back(&insert);
  return PlanInserts(inserts, session.catalog, session.config);
}

}  // namespace

std::string CompiledPlanJson(const PlannedJob& job) {
  v1::CompiledPlan plan;
  plan.set_format_version(kCompiledPlanFormatVersion);
  plan.set_job_name(job.name);
  plan.set_bounded(job.bounded);
  for (const v1::PlanNode& node : job.nodes) *plan.add_nodes() = node;
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = true;
  options.preserve_proto_field_names = true;
  std::string json;
  (void)google::protobuf::util::MessageToJsonString(plan, &json, options);
  return json;
}

absl::StatusOr<PlannedJob> ParseCompiledPlan(const std::string& json, const std::string& origin) {
  v1::CompiledPlan plan;
  // Strict: a field this version does not know is an error, never dropped.
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  const auto parsed = google::protobuf::util::JsonStringToMessage(json, &plan, options);
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("Cannot load ", origin,
                                                   ": it is not a compiled plan of Eddy (",
                                                   std::string(parsed.message()), ")"));
  }
  if (plan.format_version() != kCompiledPlanFormatVersion) {
    return absl::InvalidArgumentError(
        absl::StrCat("Cannot load ", origin, ": its plan format version is ", plan.format_version(),
                     ", and this Eddy runs version ", kCompiledPlanFormatVersion, " only"));
  }
  if (plan.nodes().empty()) {
    return absl::InvalidArgumentError(absl::StrCat("Cannot load ", origin, ": it has no nodes"));
  }
  PlannedJob job;
  job.name = plan.job_name();
  job.bounded = plan.bounded();
  job.nodes.assign(plan.nodes().begin(), plan.nodes().end());
  return job;
}

absl::StatusOr<CompiledPlanOutcome> RunCompiledPlanStatement(
    const sql::CompiledPlanStatement& statement, Session& session,
    const std::vector<std::string>& allowed_dirs) {
  using Op = sql::CompiledPlanStatement::Op;
  if (planner::IsBatchMode(session.config)) {
    return absl::InvalidArgumentError("The compiled plan feature is not supported in batch mode.");
  }
  CompiledPlanOutcome outcome;
  if (!statement.path) {  // COMPILE PLAN FOR ...: the plan as the statement's result
    ASSIGN_OR_RETURN(PlannedJob job, Compile(statement, session));
    outcome.json = CompiledPlanJson(job);
    return outcome;
  }
  const std::string& given = *statement.path;
  ASSIGN_OR_RETURN(std::string path, PlanFilePath(given, allowed_dirs));
  if (statement.op == Op::kExecute) {
    ASSIGN_OR_RETURN(outcome.job, ReadPlanFile(path, given));
    return outcome;
  }
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) {
    // COMPILE AND EXECUTE PLAN runs the plan already there, as IF NOT EXISTS keeps it.
    if (statement.op == Op::kCompileAndExecute) {
      ASSIGN_OR_RETURN(outcome.job, ReadPlanFile(path, given));
      return outcome;
    }
    if (statement.if_not_exists) {  // kept, once it reads as a plan
      RETURN_IF_ERROR(ReadPlanFile(path, given).status());
      return outcome;
    }
    if (!planner::ConfigFlag(session.config, "table.plan.force-recompile", false)) {
      return absl::InvalidArgumentError(
          absl::StrCat("Cannot overwrite the plan file '", given,
                       "'. Either manually remove the file or, if you're debugging your job, set "
                       "the option 'table.plan.force-recompile' to true."));
    }
  }
  ASSIGN_OR_RETURN(PlannedJob job, Compile(statement, session));
  RETURN_IF_ERROR(WritePlanFile(path, given, CompiledPlanJson(job)));
  if (statement.op == Op::kCompileAndExecute) outcome.job = std::move(job);
  return outcome;
}

}  // namespace eddy
