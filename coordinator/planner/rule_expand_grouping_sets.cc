// ExpandGroupingSets, Flink's DecomposeGroupingSetsRule: an aggregate of several grouping sets
// becomes an Expand that emits each input row once per set (the keys the set leaves out NULL, the
// set's id in `$e`), one plain aggregate grouped by the keys and `$e` (so one shuffle serves every
// set), and a projection that computes GROUPING / GROUPING_ID from `$e` and drops it. `$e` is
// ExpandUtil.genExpandId: a bit per key, the key of the lowest input column the most significant,
// 1 where the set leaves the key out. An aggregate argument that is also a key some set leaves out
// is read from a copy the Expand appends and never nulls. With one set, GROUPING calls are
// constants and no Expand is needed. Window aggregates are decomposed the same way (the Expand
// passes their time column through).
#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/function_registry.h"
#include "coordinator/planner/logical_rewrite.h"
#include "coordinator/planner/optimizer.h"

namespace eddy::planner {
namespace {

// ExpandUtil.buildUniqueFieldName: `name`, or name_0, name_1, ... when taken.
std::string UniqueName(std::set<std::string>* taken, const std::string& name) {
  std::string unique = name;
  for (int i = 0; taken->count(unique); ++i) unique = absl::StrCat(name, "_", i);
  taken->insert(unique);
  return unique;
}

ExprPtr BigIntLiteral(int64_t v) {
  return MakeLiteral(Value::Int(v), DataType::BigInt().WithNullable(false));
}

// GROUPING call `call` over the aggregate's `$e` column: CASE($e = id_0, value_0, ...,
// value_last), simplified as Calcite does: trailing branches whose value is the ELSE value go,
// adjacent branches of one value share an OR, and a CASE left with no branch is its value.
absl::StatusOr<ExprPtr> GroupingExpr(const GroupingCall& call,
                                     const std::vector<std::vector<int>>& sets,
                                     const std::vector<int64_t>& ids, const ExprPtr& expand_id) {
  std::vector<int64_t> values;
  for (const std::vector<int>& set : sets) values.push_back(GroupingValue(call, set));
  const int64_t otherwise = values.back();
  size_t branches = values.size() - 1;
  while (branches > 0 && values[branches - 1] == otherwise) --branches;
  std::vector<ExprPtr> args;
  for (size_t i = 0; i < branches;) {
    std::vector<ExprPtr> equal;
    size_t j = i;
    for (; j < branches && values[j] == values[i]; ++j) {
      ASSIGN_OR_RETURN(ExprPtr eq, MakeCall("=", {expand_id, BigIntLiteral(ids[j])}));
      equal.push_back(std::move(eq));
    }
    ExprPtr condition = equal.front();
    if (equal.size() > 1) {
      ASSIGN_OR_RETURN(condition, MakeCall("OR", std::move(equal)));
    }
    args.push_back(std::move(condition));
    args.push_back(BigIntLiteral(values[i]));
    i = j;
  }
  if (args.empty()) return BigIntLiteral(otherwise);
  args.push_back(BigIntLiteral(otherwise));
  return MakeCall("CASE", std::move(args));
}

absl::StatusOr<LogicalNodePtr> Decompose(const LogicalNodePtr& n) {
  const bool window = n->kind == LogicalKind::kWindowAggregate;
  const LogicalNodePtr& input = n->inputs[0];
  const int width = static_cast<int>(input->schema.size());
  const int num_keys = static_cast<int>(n->group_keys.size());
  const int num_calls = static_cast<int>(n->calls.size());
  const bool expand = n->grouping_sets.size() > 1;
  std::vector<std::vector<int>> sets = n->grouping_sets;
  if (sets.empty()) {
    std::vector<int>& all = sets.emplace_back();
    for (int k = 0; k < num_keys; ++k) all.push_back(k);
  }

  LogicalNodePtr below = input;
  std::vector<int> keys = n->group_keys;
  std::vector<LogicalAggCall> calls = n->calls;
  std::vector<int64_t> ids(sets.size(), 0);
  if (expand) {
    // Which key each input column is (-1: none), and the keys every set has.
    std::vector<int> key_of(width, -1);
    for (int k = 0; k < num_keys; ++k) key_of[n->group_keys[k]] = k;
    std::vector<bool> in_every_set(num_keys, true);
    for (const std::vector<int>& set : sets) {
      std::vector<bool> in_set(num_keys, false);
      for (int k : set) in_set[k] = true;
      for (int k = 0; k < num_keys; ++k) in_every_set[k] = in_every_set[k] && in_set[k];
    }
    std::set<int> duplicated;  // input columns: arguments that are keys some set leaves out
    for (const LogicalAggCall& call : calls) {
      if (call.arg >= 0 && key_of[call.arg] >= 0 && !in_every_set[key_of[call.arg]]) {
        duplicated.insert(call.arg);
      }
    }
    std::vector<int> keys_by_column = n->group_keys;
    std::sort(keys_by_column.begin(), keys_by_column.end());
    std::vector<ExpandProjection> projections;
    for (size_t s = 0; s < sets.size(); ++s) {
      std::vector<bool> in_set(num_keys, false);
      for (int k : sets[s]) in_set[k] = true;
      ExpandProjection& p = projections.emplace_back();
      for (int c = 0; c < width; ++c) {
        p.columns.push_back(key_of[c] >= 0 && !in_set[key_of[c]] ? -1 : c);
      }
      p.columns.push_back(-1);  // $e
      for (int c : duplicated) p.columns.push_back(c);
      for (int c : keys_by_column) ids[s] = (ids[s] << 1) | (in_set[key_of[c]] ? 0 : 1);
      p.expand_id = ids[s];
    }
    std::vector<std::string> names = input->schema.Names();
    std::set<std::string> taken(names.begin(), names.end());
    names.push_back(UniqueName(&taken, "$e"));
    std::vector<int> copy_of(width, -1);
    for (int c : duplicated) {
      copy_of[c] = static_cast<int>(names.size());
      names.push_back(UniqueName(&taken, input->schema.fields[c].name + "_0"));
    }
    below = MakeExpand(input, std::move(projections), width, std::move(names));
    keys.push_back(width);
    for (LogicalAggCall& call : calls) {
      if (call.arg >= 0 && copy_of[call.arg] >= 0) call.arg = copy_of[call.arg];
      for (int& u : call.user_args) {
        if (copy_of[u] >= 0) u = copy_of[u];
      }
    }
  }

  // The plain aggregate: the keys (and `$e`) by their input names, as Flink's reads.
  std::vector<std::string> names;
  for (int k : keys) names.push_back(below->schema.fields[k].name);
  for (int c = 0; c < num_calls; ++c) names.push_back(n->schema.fields[num_keys + c].name);
  const int window_columns = n->window_time ? 3 : 2;  // window_start, window_end[, window_time]
  if (window) {                                       // the last columns
    for (int w = window_columns; w > 0; --w) {
      names.push_back(n->schema.fields[n->schema.size() - w].name);
    }
  }
  LogicalNodePtr plain =
      window ? MakeWindowAggregate(below, n->window, std::move(keys), std::move(calls),
                                   std::move(names), n->window_time)
             : MakeAggregate(below, std::move(keys), std::move(calls), std::move(names));

  // Back to the columns of `n`: keys, calls, GROUPING calls (and the window's bounds).
  const int first_call = num_keys + (expand ? 1 : 0);
  auto column = [&](int c) { return MakeColumnRef(c, plain->schema.fields[c].type); };
  std::vector<ExprPtr> exprs;
  for (int k = 0; k < num_keys; ++k) exprs.push_back(column(k));
  for (int c = 0; c < num_calls; ++c) exprs.push_back(column(first_call + c));
  const ExprPtr expand_id = expand ? column(num_keys) : nullptr;
  for (const GroupingCall& call : n->grouping_calls) {
    ASSIGN_OR_RETURN(ExprPtr e, GroupingExpr(call, sets, ids, expand_id));
    exprs.push_back(std::move(e));
  }
  if (window) {
    for (int w = 0; w < window_columns; ++w) exprs.push_back(column(first_call + num_calls + w));
  }
  return MakeProject(plain, std::move(exprs), n->schema.Names());
}

}  // namespace

absl::StatusOr<LogicalRoots> ExpandGroupingSets(const LogicalRoots& roots) {
  return RewriteBottomUp(
      roots,
      [](const LogicalNode& original, const LogicalNodePtr& n) -> absl::StatusOr<LogicalNodePtr> {
        const bool aggregate =
            n->kind == LogicalKind::kAggregate || n->kind == LogicalKind::kWindowAggregate;
        if (!aggregate || (n->grouping_sets.empty() && n->grouping_calls.empty())) return n;
        return Decompose(n);
      });
}

}  // namespace eddy::planner
