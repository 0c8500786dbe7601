#include "common/expr/zoned_calls.h"

#include "absl/strings/str_cat.h"

namespace eddy {
namespace {

thread_local std::string planning_time_zone = kDefaultTimeZone;

bool ConvertsThroughZone(TypeId other) {
  return other == TypeId::kTimestamp || other == TypeId::kDate || other == TypeId::kTime ||
         other == TypeId::kString;
}

}  // namespace

const std::string& PlanningTimeZone() { return planning_time_zone; }

ScopedPlanningTimeZone::ScopedPlanningTimeZone(std::string zone)
    : previous_(std::move(planning_time_zone)) {
  planning_time_zone = std::move(zone);
}

ScopedPlanningTimeZone::~ScopedPlanningTimeZone() { planning_time_zone = std::move(previous_); }

bool IsZoneDependentCast(const DataType& from, const DataType& to) {
  if (from.id == TypeId::kTimestampLtz) return ConvertsThroughZone(to.id);
  if (to.id == TypeId::kTimestampLtz) return ConvertsThroughZone(from.id);
  return false;
}

bool IsZoneArgument(const Expr& call, size_t i) {
  if (call.kind != ExprKind::kCall || call.user_function != nullptr) return false;
  const std::string& f = call.function;
  if (f == "CAST" || f == "TRY_CAST") return i == 1;
  if (f == "LOCALTIMESTAMP" || f == "CURRENT_DATE" || f == "CURRENT_TIME" || f == "LOCALTIME") {
    return i == 0;
  }
  return false;
}

ExprPtr ZoneLiteral(const std::string& zone) {
  return MakeLiteral(Value::String(zone), DataType::String().WithNullable(false));
}

absl::StatusOr<std::shared_ptr<SessionTimeZone>> CallTimeZone(const Expr& call) {
  return call.kernel_state.GetOrCreate<SessionTimeZone>(
      [&]() -> absl::StatusOr<std::shared_ptr<SessionTimeZone>> {
        if (call.args.empty() || call.args.back()->kind != ExprKind::kLiteral ||
            !call.args.back()->literal.is_string()) {
          return absl::InternalError(
              absl::StrCat("'", call.function, "' carries no time zone argument"));
        }
        absl::StatusOr<SessionTimeZone> zone =
            SessionTimeZone::Parse(call.args.back()->literal.string_value());
        if (!zone.ok()) return zone.status();
        return std::make_shared<SessionTimeZone>(*std::move(zone));
      });
}

}  // namespace eddy
