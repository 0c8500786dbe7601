// Partition pruning (Flink's PushPartitionIntoTableSourceScanRule): a filter directly over a scan
// of a partitioned table, or over the table's watermark assigner over that scan (the assigner
// passes every column through; as in Flink, whose pruned source makes the watermarks, rows of
// pruned partitions then no longer advance the watermark), is evaluated, conjunct by conjunct,
// against the partitions that exist (listed when the statement is planned); the scan then reads
// only the partitions every partition-only conjunct accepts, and those conjuncts leave the filter
// (each is true for every row of a kept partition). EXPLAIN shows the partitions kept in the scan's
// table name: `table=[[c, d, t, partitions=[{a=1}, {a=2}]]]`.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/batch/changelog_batch.h"
#include "common/connectors/partition_path.h"
#include "common/expr/evaluator.h"
#include "common/expr/function_table.h"
#include "coordinator/planner/logical_rewrite.h"
#include "coordinator/planner/optimizer.h"

namespace eddy::planner {
namespace {

bool Deterministic(const Expr& e) {
  if (e.kind == ExprKind::kCall) {
    if (e.user_function != nullptr) return false;
    const FunctionDef* def = FindFunction(e.function);
    if (def != nullptr && !def->deterministic) return false;
  }
  return std::all_of(e.args.begin(), e.args.end(),
                     [](const ExprPtr& a) { return a == nullptr || Deterministic(*a); });
}

class PartitionPruner {
 public:
  explicit PartitionPruner(const PartitionLister& lister) : lister_(lister) {}

  absl::StatusOr<LogicalNodePtr> Rewrite(const LogicalNodePtr& filter) {
    if (filter->kind != LogicalKind::kFilter) return filter;
    const LogicalNodePtr& below = filter->inputs[0];
    const LogicalNodePtr* watermark = nullptr;
    if (below->kind == LogicalKind::kWatermarkAssigner) watermark = &below;
    const LogicalNodePtr& scan = watermark != nullptr ? below->inputs[0] : below;
    if (scan->kind != LogicalKind::kTableScan || scan->table->partition_keys.empty() ||
        scan->partitions.has_value()) {
      return filter;
    }
    const CatalogTable& table = *scan->table;
    // Scan column -> its position among the partition keys (-1: not a partition column).
    std::vector<int> key_of(scan->schema.size(), -1);
    for (size_t c = 0; c < scan->schema.size(); ++c) {
      const auto& keys = table.partition_keys;
      auto it = std::find(keys.begin(), keys.end(), scan->schema.fields[c].name);
      if (it != keys.end()) key_of[c] = static_cast<int>(it - keys.begin());
    }
    std::vector<ExprPtr> decided, rest;
    for (const ExprPtr& c : Conjuncts(filter->condition)) {
      const bool on_partitions =
          OnlyReferences(*c, [&](int col) { return key_of[col] >= 0; }) && Deterministic(*c);
      (on_partitions && !IsConstant(*c) ? decided : rest).push_back(c);
    }
    if (decided.empty()) return filter;

    ASSIGN_OR_RETURN(std::vector<std::string> all, lister_(table));
    ASSIGN_OR_RETURN(ChangelogBatch values, PartitionRows(table, *scan, key_of, all));
    std::vector<bool> keep(all.size(), true);
    for (const ExprPtr& c : decided) {
      auto rows = EvaluateFilter(*c, values);
      if (!rows.ok()) {  // e.g. a CAST that fails for some partition: left to the filter
        rest.push_back(c);
        continue;
      }
      std::vector<bool> accepted(all.size(), false);
      for (uint32_t r : *rows) accepted[r] = true;
      for (size_t p = 0; p < all.size(); ++p) keep[p] = keep[p] && accepted[p];
    }
    auto pruned = std::make_shared<LogicalNode>(*scan);
    pruned->partitions.emplace();
    for (size_t p = 0; p < all.size(); ++p) {
      if (keep[p]) pruned->partitions->push_back(all[p]);
    }
    LogicalNodePtr input = pruned;
    if (watermark != nullptr) {
      auto assigner = std::make_shared<LogicalNode>(**watermark);
      assigner->inputs = {input};
      input = assigner;
    }
    if (rest.empty()) return input;
    ASSIGN_OR_RETURN(ExprPtr condition, MakeConjunction(rest));
    auto copy = std::make_shared<LogicalNode>(*filter);
    copy->inputs = {input};
    copy->condition = std::move(condition);
    return LogicalNodePtr(copy);
  }

 private:
  // One row per partition: its typed values in the partition columns, NULL elsewhere.
  static absl::StatusOr<ChangelogBatch> PartitionRows(const CatalogTable& table,
                                                      const LogicalNode& scan,
                                                      const std::vector<int>& key_of,
                                                      const std::vector<std::string>& dirs) {
    std::string default_name = kDefaultPartitionName;
    if (const std::string* n = table.FindOption("partition.default-name")) default_name = *n;
    ChangelogBatch batch(scan.schema.Types());
    for (const std::string& dir : dirs) {
      ASSIGN_OR_RETURN(PartitionSpec spec, ParsePartitionPath(dir));
      std::vector<Value> row(scan.schema.size());
      for (size_t c = 0; c < scan.schema.size(); ++c) {
        if (key_of[c] < 0 || key_of[c] >= static_cast<int>(spec.size())) continue;
        const Field& f = scan.schema.fields[c];
        auto value = PartitionValue(f.name, spec[key_of[c]].second, f.type, default_name);
        if (!value.ok()) {
          return absl::InvalidArgumentError(absl::StrCat(
              "Validation error: table '", table.path.ToString(), "' has a partition directory '",
              dir, "' that does not fit its columns: ", value.status().message()));
        }
        row[c] = *std::move(value);
      }
      batch.AppendValues(row, RowKind::kInsert);
    }
    return batch;
  }

  const PartitionLister& lister_;
};

}  // namespace

absl::StatusOr<LogicalRoots> PrunePartitions(const LogicalRoots& roots,
                                             const PartitionLister& lister) {
  if (!lister) return roots;
  PartitionPruner pruner(lister);
  return RewriteBottomUp(
      roots, [&](const LogicalNode&, const LogicalNodePtr& n) { return pruner.Rewrite(n); });
}

}  // namespace eddy::planner
