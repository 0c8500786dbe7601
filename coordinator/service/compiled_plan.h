// COMPILE PLAN, EXECUTE PLAN and COMPILE AND EXECUTE PLAN: a planned INSERT job written to a JSON
// file (the CompiledPlan message of compiled_plan.proto) and submitted from it later, as it was
// planned then, whatever the catalog holds now. Plan files are local or mounted paths under the
// coordinator's --filesystem-allowed-dirs, as filesystem tables are.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/sql/ast.h"
#include "coordinator/planner/planner.h"
#include "coordinator/service/session.h"

namespace eddy {

// Bumped when PlanNode changes in a way an older plan cannot run with.
inline constexpr uint32_t kCompiledPlanFormatVersion = 1;

// What a compiled-plan statement leaves to its caller: nothing (a plan written to its file), the
// plan's JSON to show (COMPILE PLAN without a file), or a job to submit (EXECUTE PLAN, COMPILE AND
// EXECUTE PLAN).
struct CompiledPlanOutcome {
  std::optional<std::string> json;
  std::optional<PlannedJob> job;
};

absl::StatusOr<CompiledPlanOutcome> RunCompiledPlanStatement(
    const sql::CompiledPlanStatement& statement, Session& session,
    const std::vector<std::string>& allowed_dirs);

// The plan as pretty-printed JSON, and back. ParseCompiledPlan names `origin` in its errors.
std::string CompiledPlanJson(const PlannedJob& job);
absl::StatusOr<PlannedJob> ParseCompiledPlan(const std::string& json, const std::string& origin);

}  // namespace eddy
