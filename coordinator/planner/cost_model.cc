#include "coordinator/planner/cost_model.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/types/value.h"

namespace eddy::planner {
namespace {

// Flink's FlinkCost units.
constexpr double kDefaultTableRows = 1.0e8;
constexpr double kHashCpu = 8;
constexpr double kSerializeCpu = 160;
constexpr double kSingletonCpu = 1;

// Flink's selectivities when no column statistics say better.
constexpr double kEqualsSelectivity = 0.15;
constexpr double kComparisonSelectivity = 0.5;
constexpr double kIsNullSelectivity = 0.1;
constexpr double kLikeSelectivity = 0.05;
constexpr double kDefaultSelectivity = 0.25;

double Selectivity(const v1::Expr& e) {
  if (!e.has_call()) {
    // A constant TRUE keeps every row, FALSE none; any other bare value: the default.
    if (e.has_literal() && e.literal().has_bool_value()) return e.literal().bool_value() ? 1 : 0;
    return kDefaultSelectivity;
  }
  const v1::Call& c = e.call();
  const std::string& f = c.function();
  if (f == "AND") {
    double s = 1;
    for (const v1::Expr& a : c.args()) s *= Selectivity(a);
    return s;
  }
  if (f == "OR") {
    double s = 0;
    for (const v1::Expr& a : c.args()) s = s + Selectivity(a) - s * Selectivity(a);
    return s;
  }
  if (f == "NOT" && c.args_size() == 1) return 1 - Selectivity(c.args(0));
  if (f == "=" || f == "IS NOT DISTINCT FROM") return kEqualsSelectivity;
  if (f == "<>" || f == "!=" || f == "IS DISTINCT FROM") return 1 - kEqualsSelectivity;
  if (f == "<" || f == "<=" || f == ">" || f == ">=") return kComparisonSelectivity;
  if (f == "IS NULL") return kIsNullSelectivity;
  if (f == "IS NOT NULL") return 1 - kIsNullSelectivity;
  if (f == "LIKE") return kLikeSelectivity;
  return kDefaultSelectivity;
}

// 1 - e^(-0.1 * keys): Flink's output/input ratio of an aggregate whose keys' distinct counts are
// unknown.
double AggregationRatio(int num_keys) { return 1.0 - std::exp(-0.1 * num_keys); }

double TypeSize(const v1::DataType& t) {
  switch (t.id()) {
    case v1::TYPE_BOOLEAN:
    case v1::TYPE_TINYINT:
      return 1;
    case v1::TYPE_SMALLINT:
      return 2;
    case v1::TYPE_INT:
    case v1::TYPE_FLOAT:
    case v1::TYPE_INTERVAL_DAY_TIME:
    case v1::TYPE_INTERVAL_YEAR_MONTH:
      return 4;
    case v1::TYPE_BIGINT:
    case v1::TYPE_DOUBLE:
      return 8;
    case v1::TYPE_DECIMAL:
    case v1::TYPE_STRING:
    case v1::TYPE_DATE:
    case v1::TYPE_TIME:
    case v1::TYPE_TIMESTAMP:
    case v1::TYPE_TIMESTAMP_LTZ:
      return 12;
    case v1::TYPE_BINARY:
      return 16;
    case v1::TYPE_NULL:
      return 1;
    case v1::TYPE_ARRAY:
      return t.children_size() > 0 ? TypeSize(t.children(0)) * 16 : 16;
    case v1::TYPE_MAP:
      return t.children_size() > 1 ? (TypeSize(t.children(0)) + TypeSize(t.children(1))) * 16 : 16;
    case v1::TYPE_ROW: {
      double s = 0;
      for (const v1::DataType& c : t.children()) s += TypeSize(c);
      return s;
    }
    case v1::TypeId_INT_MIN_SENTINEL_DO_NOT_USE_:
    case v1::TypeId_INT_MAX_SENTINEL_DO_NOT_USE_:
      break;
  }
  return 12;
}

std::vector<int> Keys(const google::protobuf::RepeatedField<int32_t>& keys) {
  return std::vector<int>(keys.begin(), keys.end());
}

// A projection that computes (not a column, a literal or a CAST): what Flink counts as Calc cpu.
bool IsComputation(const v1::Expr& e) { return e.has_call() && e.call().function() != "CAST"; }

}  // namespace

Cost& Cost::operator+=(const Cost& other) {
  rows += other.rows;
  cpu += other.cpu;
  io += other.io;
  network += other.network;
  memory += other.memory;
  return *this;
}

std::string Cost::ToString() const {
  return absl::StrCat("{", FormatDouble(rows), " rows, ", FormatDouble(cpu), " cpu, ",
                      FormatDouble(io), " io, ", FormatDouble(network), " network, ",
                      FormatDouble(memory), " memory}");
}

CostModel::CostModel(const PhysicalPlan& plan, TableStatisticsLookup table_statistics)
    : plan_(plan), table_statistics_(std::move(table_statistics)), row_counts_(plan.nodes.size()) {}

std::optional<TableStatistics> CostModel::ScanStatistics(int node) {
  auto [it, added] = scan_statistics_.try_emplace(node);
  if (added && table_statistics_) it->second = table_statistics_(plan_.nodes[node].table_source());
  return it->second;
}

std::optional<double> CostModel::DistinctCount(int node, const std::vector<int>& columns) {
  const v1::PlanNode& n = plan_.nodes[node];
  switch (n.op_case()) {
    case v1::PlanNode::kTableSource: {
      std::optional<TableStatistics> stats = ScanStatistics(node);
      if (!stats) return std::nullopt;
      const v1::TableSource& scan = n.table_source();
      double ndv = 1;
      for (int c : columns) {
        if (c < 0 || c >= scan.columns_size()) return std::nullopt;
        const int column = scan.columns(c);
        if (column < 0 || column >= scan.table_schema().fields_size()) return std::nullopt;
        auto it = stats->columns.find(scan.table_schema().fields(column).name());
        if (it == stats->columns.end() || !it->second.ndv) return std::nullopt;
        ndv *= std::max<double>(1.0, static_cast<double>(*it->second.ndv));
      }
      return std::min(ndv, RowCount(node));
    }
    case v1::PlanNode::kCalc: {
      // Columns passed on as they are keep their distinct counts, at most the rows left.
      std::vector<int> input_columns;
      for (int c : columns) {
        if (c < 0 || c >= n.calc().projections_size()) return std::nullopt;
        const v1::Expr& e = n.calc().projections(c);
        if (!e.has_column()) return std::nullopt;
        input_columns.push_back(e.column());
      }
      std::optional<double> ndv = DistinctCount(n.inputs(0), input_columns);
      if (!ndv) return std::nullopt;
      return std::min(*ndv, RowCount(node));
    }
    case v1::PlanNode::kLocalGroupAggregate: {
      // The group keys lead the local aggregate's output.
      std::vector<int> input_columns;
      const auto& keys = n.local_group_aggregate().group_keys();
      for (int c : columns) {
        if (c < 0 || c >= keys.size()) return std::nullopt;
        input_columns.push_back(keys[c]);
      }
      return DistinctCount(n.inputs(0), input_columns);
    }
    case v1::PlanNode::kWatermarkAssigner:
    case v1::PlanNode::kMiniBatchAssigner:
      return DistinctCount(n.inputs(0), columns);
    default:
      return std::nullopt;
  }
}

double CostModel::GroupedRows(int node, const std::vector<int>& keys, int extra_keys) {
  const double input = RowCount(plan_.nodes[node].inputs(0));
  const int num_keys = static_cast<int>(keys.size()) + extra_keys;
  if (num_keys == 0) return 1.0;
  if (extra_keys == 0) {
    if (std::optional<double> ndv = DistinctCount(plan_.nodes[node].inputs(0), keys)) {
      return std::min(*ndv, input);
    }
  }
  return input * AggregationRatio(num_keys);
}

std::string CostModel::Suffix(double row_count, const Cost& cumulative) {
  return absl::StrCat(": rowcount = ", FormatDouble(row_count),
                      ", cumulative cost = ", cumulative.ToString());
}

double CostModel::AverageRowSize(int node) const {
  double size = 0;
  for (const v1::Field& f : plan_.nodes[node].output_schema().fields()) size += TypeSize(f.type());
  return size;
}

double CostModel::RowCount(int node) {
  if (!row_counts_[node]) row_counts_[node] = ComputeRowCount(node);
  return *row_counts_[node];
}

double CostModel::ComputeRowCount(int node) {
  const v1::PlanNode& n = plan_.nodes[node];
  const double input = n.inputs_size() > 0 ? RowCount(n.inputs(0)) : 0;
  switch (n.op_case()) {
    case v1::PlanNode::kValues: {
      double rows = 0;
      for (const v1::ChangelogBatch& b : n.values().batches()) rows += b.num_rows();
      return rows;
    }
    case v1::PlanNode::kTableSource: {
      std::optional<TableStatistics> stats = ScanStatistics(node);
      return stats ? static_cast<double>(stats->row_count) : kDefaultTableRows;
    }
    case v1::PlanNode::kCalc:
      return n.calc().has_filter() ? input * Selectivity(n.calc().filter()) : input;
    case v1::PlanNode::kGroupAggregate:
      return GroupedRows(node, Keys(n.group_aggregate().group_keys()), 0);
    case v1::PlanNode::kGlobalGroupAggregate:
      return GroupedRows(node, Keys(n.global_group_aggregate().group_keys()), 0);
    case v1::PlanNode::kHashAggregate:
      return GroupedRows(node, Keys(n.hash_aggregate().group_keys()), 0);
    case v1::PlanNode::kWindowAggregate:  // the window counts as one more key
      return GroupedRows(node, Keys(n.window_aggregate().group_keys()), 1);
    case v1::PlanNode::kSessionWindowAggregate:
      return GroupedRows(node, Keys(n.session_window_aggregate().group_keys()), 1);
    case v1::PlanNode::kDeduplicate:
      return GroupedRows(node, Keys(n.deduplicate().keys()), 0);
    case v1::PlanNode::kRank:
    case v1::PlanNode::kWindowRank: {
      const bool window = n.op_case() == v1::PlanNode::kWindowRank;
      const int keys =
          window ? n.window_rank().partition_keys_size() + 1 : n.rank().partition_keys_size();
      const double end =
          static_cast<double>(window ? n.window_rank().rank_end() : n.rank().rank_end());
      return std::min(input, (keys == 0 ? 1.0 : input * AggregationRatio(keys)) * end);
    }
    case v1::PlanNode::kUnionAll: {
      double rows = 0;
      for (int in : n.inputs()) rows += RowCount(in);
      return rows;
    }
    case v1::PlanNode::kExpand:
      return input * std::max(1, n.expand().projections_size());
    case v1::PlanNode::kJoin:
    case v1::PlanNode::kIntervalJoin:
    case v1::PlanNode::kTemporalJoin: {
      const double right = n.inputs_size() > 1 ? RowCount(n.inputs(1)) : 1;
      const int keys = n.has_join()            ? n.join().left_keys_size()
                       : n.has_interval_join() ? n.interval_join().left_keys_size()
                                               : n.temporal_join().left_keys_size();
      const double selectivity = std::pow(kEqualsSelectivity, keys);
      const double inner = input * right * selectivity;
      if (!n.has_join()) return inner;
      switch (n.join().type()) {
        case v1::Join::LEFT_OUTER:
          return input * (1 - selectivity) + inner;
        case v1::Join::RIGHT_OUTER:
          return right * (1 - selectivity) + inner;
        case v1::Join::FULL_OUTER:
          return (input + right) * (1 - selectivity) + inner;
        case v1::Join::SEMI:
          return input * selectivity;
        case v1::Join::ANTI:
          return input * (1 - selectivity);
        case v1::Join::INNER:
        case v1::Join::TYPE_UNSPECIFIED:
        case v1::Join_Type_Join_Type_INT_MIN_SENTINEL_DO_NOT_USE_:
        case v1::Join_Type_Join_Type_INT_MAX_SENTINEL_DO_NOT_USE_:
          break;
      }
      return inner;
    }
    default:
      return input;
  }
}

Cost CostModel::SelfCost(int node) {
  const v1::PlanNode& n = plan_.nodes[node];
  const double rows = RowCount(node);
  switch (n.op_case()) {
    case v1::PlanNode::kTableSource:
      return {rows, rows, rows * AverageRowSize(node), 0, 0};
    case v1::PlanNode::kValues:
      return {rows, 1, 0, 0, 0};
    case v1::PlanNode::kCalc: {
      const auto& projections = n.calc().projections();
      const double computed =
          static_cast<double>(std::count_if(projections.begin(), projections.end(), IsComputation));
      return {rows, rows * computed, 0, 0, 0};
    }
    default:
      return {rows, rows, 0, 0, 0};
  }
}

Cost CostModel::ExchangeCost(int input, int num_keys) {
  const double rows = RowCount(input);
  const double per_row_cpu =
      num_keys == 0 ? kSingletonCpu + kSerializeCpu : kHashCpu * num_keys + kSerializeCpu;
  return {rows, per_row_cpu * rows, 0, rows * AverageRowSize(input), 0};
}

}  // namespace eddy::planner
