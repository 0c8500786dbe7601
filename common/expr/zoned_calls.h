// Calls whose result depends on the session time zone (table.local-time-zone): CAST between
// TIMESTAMP_LTZ and TIMESTAMP, DATE, TIME or STRING, LOCALTIMESTAMP, CURRENT_DATE, CURRENT_TIME and
// LOCALTIME. Each carries the zone as its last argument, a STRING literal, so that a plan is
// evaluated in the zone of the session that planned it (as Flink fixes it at planning) wherever it
// runs. While a statement is
// planned the zone comes from ScopedPlanningTimeZone; a deserialized plan brings its own.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "common/expr/expr.h"
#include "common/types/time_zone.h"

namespace eddy {

// The zone of the statement being planned on this thread ("UTC" outside any scope).
const std::string& PlanningTimeZone();

// Sets PlanningTimeZone() for this thread while it lives.
class ScopedPlanningTimeZone {
 public:
  explicit ScopedPlanningTimeZone(std::string zone);
  ~ScopedPlanningTimeZone();
  ScopedPlanningTimeZone(const ScopedPlanningTimeZone&) = delete;
  ScopedPlanningTimeZone& operator=(const ScopedPlanningTimeZone&) = delete;

 private:
  std::string previous_;
};

// CAST(from AS to) converts through the session zone: exactly one side is TIMESTAMP_LTZ and the
// other is TIMESTAMP, DATE, TIME or STRING.
bool IsZoneDependentCast(const DataType& from, const DataType& to);

// Whether argument `i` of `call` is its zone argument (not shown in plans).
bool IsZoneArgument(const Expr& call, size_t i);

// The STRING literal of a zone name.
ExprPtr ZoneLiteral(const std::string& zone);

// The zone a call carries as its last argument, parsed once per call and kept with it.
absl::StatusOr<std::shared_ptr<SessionTimeZone>> CallTimeZone(const Expr& call);

}  // namespace eddy
