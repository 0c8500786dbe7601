#include "coordinator/planner/two_phase_aggregate.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/expr/aggregate_signature.h"
#include "coordinator/planner/plan_digest.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {
namespace {

constexpr char kStrategyKey[] = "table.optimizer.agg-phase-strategy";

std::string FnName(const LogicalAggCall& c) {
  if (c.kind == AggKind::kUser) return c.user_name;
  std::string_view n = AggKindName(c.kind);
  return std::string(n.data(), n.size());
}

// `a` or `(a, b)`: the fields of call `c` in the layout.
std::string Fields(const PartialLayout& layout, size_t c) {
  std::vector<std::string> names;
  for (int k = 0; k < layout.num_fields[c]; ++k) {
    names.push_back(layout.schema.fields[layout.first_column[c] + k].name);
  }
  std::string joined = absl::StrJoin(names, ", ");
  return names.size() == 1 ? joined : "(" + joined + ")";
}

std::string WithGroupBy(const std::string& name, const std::vector<std::string>& keys,
                        const std::vector<std::string>& select) {
  std::string s = name + "(";
  if (!keys.empty()) absl::StrAppend(&s, "groupBy=[", absl::StrJoin(keys, ", "), "], ");
  return absl::StrCat(s, "select=[", absl::StrJoin(select, ", "), "])");
}

}  // namespace

absl::StatusOr<AggPhaseStrategy> AggPhaseStrategyFromConfig(const ConfigMap& config) {
  auto it = config.find(kStrategyKey);
  if (it == config.end()) return AggPhaseStrategy::kAuto;
  const std::string v = absl::AsciiStrToUpper(it->second);
  if (v == "AUTO") return AggPhaseStrategy::kAuto;
  if (v == "ONE_PHASE") return AggPhaseStrategy::kOnePhase;
  if (v == "TWO_PHASE") return AggPhaseStrategy::kTwoPhase;
  return ValidationError(absl::StrCat(
      "'", kStrategyKey, "' must be AUTO, ONE_PHASE or TWO_PHASE, got '", it->second, "'"));
}

std::optional<PartialLayout> SplitAggregate(const LogicalNode& agg) {
  PartialLayout layout;
  layout.retracting = !agg.input().mode.IsInsertOnly();
  const Schema& in = agg.input().schema;
  for (int k : agg.group_keys) layout.schema.fields.push_back(in.fields[k]);
  int n = 0;  // Flink numbers the accumulator fields of all calls in one sequence
  for (const LogicalAggCall& c : agg.calls) {
    auto fields = AggPartialFields(c.kind, c.arg_type, c.distinct, layout.retracting);
    if (!fields.ok()) return std::nullopt;
    layout.first_column.push_back(static_cast<int>(layout.schema.size()));
    layout.num_fields.push_back(static_cast<int>(fields->size()));
    if (layout.retracting && c.kind == AggKind::kCountStar && layout.row_count_column < 0) {
      layout.row_count_column = static_cast<int>(layout.schema.size());
    }
    for (const AggPartialField& f : *fields) {
      layout.schema.fields.push_back(
          Field{absl::StrCat(std::string(f.name.data(), f.name.size()), "$", n++), f.type});
    }
  }
  if (layout.retracting && layout.row_count_column < 0) {
    const AggPartialField f = AggPartialRowCountField();
    layout.row_count_column = static_cast<int>(layout.schema.size());
    layout.appended_row_count = true;
    layout.schema.fields.push_back(
        Field{absl::StrCat(std::string(f.name.data(), f.name.size()), "$", n++), f.type});
  }
  return layout;
}

std::string LocalAggregateDigest(const LogicalNode& agg, const PartialLayout& layout) {
  const std::vector<std::string> in = agg.input().schema.Names();
  std::vector<std::string> keys, select;
  for (int k : agg.group_keys) keys.push_back(in[k]);
  select = keys;
  for (size_t c = 0; c < agg.calls.size(); ++c) {
    const LogicalAggCall& call = agg.calls[c];
    const std::string arg = AggCallArgs(call, in);
    select.push_back(absl::StrCat(AggCallDigest(call, arg), " AS ", Fields(layout, c)));
  }
  if (layout.appended_row_count) {
    select.push_back("COUNT(*) AS " + layout.schema.fields[layout.row_count_column].name);
  }
  return WithGroupBy("LocalGroupAggregate", keys, select);
}

std::string GlobalAggregateDigest(const LogicalNode& agg, const PartialLayout& layout) {
  const std::vector<std::string> out = agg.schema.Names();
  std::vector<std::string> keys, select;
  for (size_t i = 0; i < agg.group_keys.size(); ++i) {
    keys.push_back(layout.schema.fields[i].name);
    select.push_back(keys[i] == out[i] ? keys[i] : keys[i] + " AS " + out[i]);
  }
  for (size_t c = 0; c < agg.calls.size(); ++c) {
    select.push_back(absl::StrCat(FnName(agg.calls[c]), "(", Fields(layout, c), ") AS ",
                                  out[agg.group_keys.size() + c]));
  }
  return WithGroupBy("GlobalGroupAggregate", keys, select);
}

}  // namespace eddy::planner
