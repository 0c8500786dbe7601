// The estimates EXPLAIN ESTIMATED_COST prints after each node of the optimized physical plan:
// `rowcount = 1.0E8, cumulative cost = {1.0E8 rows, 1.0E8 cpu, 2.0E9 io, 0.0 network, 0.0 memory}`.
// Eddy has no cost-based optimizer; this model reproduces the formulas Flink's planner reports with
// (its FlinkCost units), so that estimates read as a Flink user expects:
// - Row counts: a table scan has its catalog statistics' row count (ANALYZE TABLE), else Flink's
//   default 1.0E8; VALUES its rows; a Calc its input times the selectivity of its condition
//   (Flink's defaults: `=` 0.15, comparisons 0.5, IS NULL 0.1, LIKE 0.05, others 0.25; AND
//   multiplies, OR adds less the overlap, NOT inverts); an aggregate 1.0 without keys, else the
//   product of its keys' distinct counts when statistics of the scanned columns give them (through
//   Calcs that pass the columns on), at most its input, else its input times
//   1 - e^(-0.1 * number of keys) (Flink's ratio when the distinct counts are unknown); a
//   join Calcite's left * right * selectivity of its key equalities, outer sides kept; Rank and
//   Deduplicate as aggregates (a Rank keeping at most rank_end rows per partition); a Union the
//   sum of its inputs; any other node its input's count.
// - Own cost: a table scan reads each row once (rows, cpu = rows, io = rows * average row size);
//   VALUES costs 1 cpu; a Calc costs its rows times the computed projections (not column
//   references, literals or CASTs); an Exchange serializes each row (160 cpu a row, plus 8 per hash
//   key, or 1 for `single`) and ships rows * average row size over the network; any other node
//   one row and one cpu per output row. Average column sizes are Flink's by type (INT 4, BIGINT 8,
//   strings 12, TIMESTAMP 12, binary 16, ...).
// - The cumulative cost of a node adds its own cost to its inputs' cumulative costs.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "coordinator/catalog/table_statistics.h"
#include "coordinator/planner/physical_planner.h"
#include "eddy/v1/plan.pb.h"

namespace eddy::planner {

struct Cost {
  double rows = 0;
  double cpu = 0;
  double io = 0;
  double network = 0;
  double memory = 0;

  Cost& operator+=(const Cost& other);
  // `{1.0E8 rows, 1.0E8 cpu, 2.0E9 io, 0.0 network, 0.0 memory}`, numbers as Java prints doubles.
  std::string ToString() const;
};

// The catalog statistics of what a scan reads, or nullopt when there are none.
using TableStatisticsLookup = std::function<std::optional<TableStatistics>(const v1::TableSource&)>;

class CostModel {
 public:
  CostModel(const PhysicalPlan& plan, TableStatisticsLookup table_statistics);

  double RowCount(int node);
  Cost SelfCost(int node);
  // The Exchange Flink puts in front of a shuffling consumer, over `input`; no keys: `single`.
  Cost ExchangeCost(int input, int num_keys);

  // `: rowcount = 1.0E8, cumulative cost = {...}`, appended to a node's description.
  static std::string Suffix(double row_count, const Cost& cumulative);

 private:
  double AverageRowSize(int node) const;
  double ComputeRowCount(int node);
  std::optional<TableStatistics> ScanStatistics(int node);
  // The number of distinct values of `columns` of the node's output, from column statistics;
  // nullopt when unknown.
  std::optional<double> DistinctCount(int node, const std::vector<int>& columns);
  double GroupedRows(int node, const std::vector<int>& keys, int extra_keys);

  const PhysicalPlan& plan_;
  TableStatisticsLookup table_statistics_;
  std::vector<std::optional<double>> row_counts_;
  std::map<int, std::optional<TableStatistics>> scan_statistics_;
};

}  // namespace eddy::planner
