#include "coordinator/planner/logical_plan.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_join.h"

namespace eddy::planner {

std::string ChangelogMode::ToString() const {
  std::vector<std::string> parts;
  if (insert) parts.push_back("I");
  if (update_before) parts.push_back("UB");
  if (update_after) parts.push_back("UA");
  if (del) parts.push_back("D");
  return "[" + absl::StrJoin(parts, ",") + "]";
}

LogicalNodePtr MakeTableScan(std::shared_ptr<const CatalogTable> table) {
  auto n = std::make_shared<LogicalNode>();
  n->kind = LogicalKind::kTableScan;
  n->schema = table->PhysicalSchema();
  n->table = std::move(table);
  return n;
}

LogicalNodePtr MakeValues(Schema schema, std::vector<std::vector<Value>> rows) {
  auto n = std::make_shared<LogicalNode>();
  n->kind = LogicalKind::kValues;
  n->schema = std::move(schema);
  n->rows = std::move(rows);
  return n;
}

LogicalNodePtr MakeProject(LogicalNodePtr input, std::vector<ExprPtr> projections,
                           std::vector<std::string> names) {
  auto n = std::make_shared<LogicalNode>();
  n->kind = LogicalKind::kProject;
  for (size_t i = 0; i < projections.size(); ++i) {
    n->schema.fields.push_back(
        {i < names.size() ? names[i] : "EXPR$" + std::to_string(i), projections[i]->type});
  }
  n->projections = std::move(projections);
  n->inputs.push_back(std::move(input));
  return n;
}

LogicalNodePtr MakeFilter(LogicalNodePtr input, ExprPtr condition) {
  auto n = std::make_shared<LogicalNode>();
  n->kind = LogicalKind::kFilter;
  n->schema = input->schema;
  n->condition = std::move(condition);
  n->inputs.push_back(std::move(input));
  return n;
}

LogicalNodePtr MakeAggregate(LogicalNodePtr input, std::vector<int> group_keys,
                             std::vector<LogicalAggCall> calls, std::vector<std::string> names) {
  auto n = std::make_shared<LogicalNode>();
  n->kind = LogicalKind::kAggregate;
  size_t i = 0;
  auto name = [&](size_t k) { return k < names.size() ? names[k] : "EXPR$" + std::to_string(k); };
  for (int k : group_keys) n->schema.fields.push_back({name(i++), input->schema.fields[k].type});
  for (const auto& c : calls) n->schema.fields.push_back({name(i++), c.result_type});
  n->group_keys = std::move(group_keys);
  n->calls = std::move(calls);
  n->inputs.push_back(std::move(input));
  return n;
}

LogicalNodePtr MakeUnion(std::vector<LogicalNodePtr> inputs) {
  auto n = std::make_shared<LogicalNode>();
  n->kind = LogicalKind::kUnion;
  n->schema = inputs.front()->schema;
  n->inputs = std::move(inputs);
  return n;
}

LogicalNodePtr MakeSink(LogicalNodePtr input, std::shared_ptr<const CatalogTable> table) {
  auto n = std::make_shared<LogicalNode>();
  n->kind = LogicalKind::kSink;
  n->schema = table->SinkSchema();
  n->sink_table = std::move(table);
  n->inputs.push_back(std::move(input));
  return n;
}

LogicalNodePtr MakeWatermarkAssigner(LogicalNodePtr input, int rowtime, ExprPtr watermark) {
  auto n = std::make_shared<LogicalNode>();
  n->kind = LogicalKind::kWatermarkAssigner;
  n->schema = input->schema;
  n->rowtime = rowtime;
  n->watermark = std::move(watermark);
  n->inputs.push_back(std::move(input));
  return n;
}

LogicalNodePtr MakeWindowTableFunction(LogicalNodePtr input, WindowSpec window,
                                       const std::vector<std::string>& names) {
  auto n = std::make_shared<LogicalNode>();
  n->kind = LogicalKind::kWindowTableFunction;
  n->schema = input->schema;
  // window_start and window_end are TIMESTAMP(3); window_time has the time attribute's type (as
  // Flink: TIMESTAMP_LTZ(3) for a TIMESTAMP_LTZ attribute such as PROCTIME()).
  const DataType ts = DataType::Timestamp(3).WithNullable(false);
  const bool ltz = window.time_column >= 0 &&
                   window.time_column < static_cast<int>(input->schema.size()) &&
                   input->schema.fields[window.time_column].type.id == TypeId::kTimestampLtz;
  for (size_t i = 0; i < names.size(); ++i) {
    const bool time = i == 2;
    n->schema.fields.push_back(
        {names[i], time && ltz ? DataType::TimestampLtz(3).WithNullable(false) : ts});
  }
  n->window = window;
  n->inputs.push_back(std::move(input));
  return n;
}

LogicalNodePtr MakeWindowAggregate(LogicalNodePtr input, WindowSpec window,
                                   std::vector<int> group_keys, std::vector<LogicalAggCall> calls,
                                   std::vector<std::string> names, bool window_time) {
  auto n = std::make_shared<LogicalNode>();
  n->kind = LogicalKind::kWindowAggregate;
  size_t i = 0;
  auto name = [&](size_t k) { return k < names.size() ? names[k] : "EXPR$" + std::to_string(k); };
  for (int k : group_keys) n->schema.fields.push_back({name(i++), input->schema.fields[k].type});
  for (const auto& c : calls) n->schema.fields.push_back({name(i++), c.result_type});
  const DataType ts = DataType::Timestamp(3).WithNullable(false);
  n->schema.fields.push_back({name(i++), ts});
  n->schema.fields.push_back({name(i++), ts});
  if (window_time) {
    // The time attribute's type, as the window TVF's window_time.
    const bool ltz = input->schema.fields[window.time_column].type.id == TypeId::kTimestampLtz;
    n->schema.fields.push_back(
        {name(i++), ltz ? DataType::TimestampLtz(3).WithNullable(false) : ts});
  }
  n->window_time = window_time;
  n->group_keys = std::move(group_keys);
  n->calls = std::move(calls);
  n->window = window;
  n->inputs.push_back(std::move(input));
  return n;
}

LogicalNodePtr MakeJoin(LogicalNodePtr left, LogicalNodePtr right, JoinType type, ExprPtr condition,
                        std::vector<std::string> names) {
  auto n = std::make_shared<LogicalNode>();
  n->kind = LogicalKind::kJoin;
  n->join_type = type;
  n->condition = std::move(condition);
  const bool pad_left = type == JoinType::kRight || type == JoinType::kFull;
  const bool pad_right = type == JoinType::kLeft || type == JoinType::kFull;
  const bool semi_or_anti = type == JoinType::kSemi || type == JoinType::kAnti;
  size_t i = 0;
  auto name = [&](const Field& f) { return i < names.size() ? names[i] : f.name; };
  for (const Field& f : left->schema.fields) {
    n->schema.fields.push_back({name(f), pad_left ? f.type.WithNullable(true) : f.type});
    ++i;
  }
  if (!semi_or_anti) {
    for (const Field& f : right->schema.fields) {
      n->schema.fields.push_back({name(f), pad_right ? f.type.WithNullable(true) : f.type});
      ++i;
    }
  }
  n->inputs = {std::move(left), std::move(right)};
  return n;
}

LogicalNodePtr MakeRank(LogicalNodePtr input, RankSpec rank, const std::string& row_number_name) {
  auto n = std::make_shared<LogicalNode>();
  n->kind = LogicalKind::kRank;
  n->schema = input->schema;
  if (rank.output_rank_number) {
    n->schema.fields.push_back({row_number_name, DataType::BigInt().WithNullable(false)});
  }
  n->rank = std::move(rank);
  n->inputs.push_back(std::move(input));
  return n;
}

LogicalNodePtr MakeOverAggregate(LogicalNodePtr input, OverSpec over,
                                 std::vector<LogicalAggCall> calls,
                                 const std::vector<std::string>& names) {
  auto n = std::make_shared<LogicalNode>();
  n->kind = LogicalKind::kOverAggregate;
  n->schema = input->schema;
  for (size_t c = 0; c < calls.size(); ++c) {
    n->schema.fields.push_back(
        {c < names.size() ? names[c] : "w0$o" + std::to_string(c), calls[c].result_type});
  }
  n->over = std::move(over);
  n->calls = std::move(calls);
  n->inputs.push_back(std::move(input));
  return n;
}

LogicalNodePtr MakeCorrelate(LogicalNodePtr input, std::string function_name,
                             std::shared_ptr<const UserFunction> function,
                             std::vector<ExprPtr> args, JoinType type,
                             const std::vector<std::string>& names) {
  auto n = std::make_shared<LogicalNode>();
  n->kind = LogicalKind::kCorrelate;
  n->schema = input->schema;
  for (size_t i = 0; i < function->result_types().size(); ++i) {
    n->schema.fields.push_back({names[i], function->result_types()[i].WithNullable(true)});
  }
  n->projections = std::move(args);
  n->join_type = type;
  n->table_function = std::move(function);
  n->table_function_name = std::move(function_name);
  n->inputs.push_back(std::move(input));
  return n;
}

LogicalNodePtr MakeExpand(LogicalNodePtr input, std::vector<ExpandProjection> projections,
                          int expand_id_column, std::vector<std::string> names) {
  auto n = std::make_shared<LogicalNode>();
  n->kind = LogicalKind::kExpand;
  const size_t width = projections.empty() ? 0 : projections[0].columns.size();
  for (size_t i = 0; i < width; ++i) {
    const std::string name = i < names.size() ? names[i] : "$f" + std::to_string(i);
    if (static_cast<int>(i) == expand_id_column) {
      n->schema.fields.push_back({name, DataType::BigInt().WithNullable(false)});
      continue;
    }
    std::optional<DataType> type;
    bool nulled = false;
    for (const ExpandProjection& p : projections) {
      const int c = p.columns[i];
      if (c < 0) {
        nulled = true;
      } else if (!type || input->schema.fields[c].type.nullable) {
        type = input->schema.fields[c].type;
      }
    }
    n->schema.fields.push_back(
        {name, nulled ? type.value_or(DataType::Null()).WithNullable(true) : *type});
  }
  n->expand_projections = std::move(projections);
  n->expand_id_column = expand_id_column;
  n->inputs.push_back(std::move(input));
  return n;
}

void SetGroupingSets(LogicalNode* n, std::vector<std::vector<int>> sets,
                     std::vector<GroupingCall> calls, const std::vector<std::string>& call_names) {
  const size_t keys = n->group_keys.size();
  for (const std::vector<int>& set : sets) {
    std::vector<bool> in_set(keys, false);
    for (int k : set) in_set[k] = true;
    for (size_t k = 0; k < keys; ++k) {
      if (!in_set[k]) n->schema.fields[k].type = n->schema.fields[k].type.WithNullable(true);
    }
  }
  const size_t at = keys + n->calls.size();
  for (size_t c = 0; c < calls.size(); ++c) {
    n->schema.fields.insert(n->schema.fields.begin() + at + c,
                            {c < call_names.size() ? call_names[c] : "$g" + std::to_string(c),
                             DataType::BigInt().WithNullable(false)});
  }
  n->grouping_sets = std::move(sets);
  n->grouping_calls = std::move(calls);
}

int64_t GroupingValue(const GroupingCall& call, const std::vector<int>& set) {
  int64_t value = 0;
  for (int arg : call.args) {
    const bool grouped = arg < 0 || std::find(set.begin(), set.end(), arg) != set.end();
    value = (value << 1) | (grouped ? 0 : 1);
  }
  return value;
}

int WindowStartColumn(const LogicalNode& window_aggregate) {
  return static_cast<int>(window_aggregate.schema.size()) - (window_aggregate.window_time ? 3 : 2);
}

std::optional<WindowBound> FindWindowBound(const LogicalNode& n, int column) {
  switch (n.kind) {
    case LogicalKind::kWindowTableFunction: {
      if (n.window.kind == WindowSpec::Kind::kSession) return std::nullopt;
      const int n_in = static_cast<int>(n.input().schema.size());
      if (column == n_in || column == n_in + 1) return WindowBound{&n, column == n_in};
      return std::nullopt;
    }
    case LogicalKind::kWindowAggregate: {
      const int start = WindowStartColumn(n);
      if (column == start || column == start + 1) return WindowBound{&n, column == start};
      return std::nullopt;
    }
    case LogicalKind::kProject: {
      const Expr& e = *n.projections[column];
      if (e.kind != ExprKind::kColumn) return std::nullopt;
      return FindWindowBound(n.input(), e.column);
    }
    case LogicalKind::kFilter:
    case LogicalKind::kWatermarkAssigner:
      return FindWindowBound(n.input(), column);
    case LogicalKind::kTableScan:
    case LogicalKind::kValues:
    case LogicalKind::kAggregate:
    case LogicalKind::kUnion:
    case LogicalKind::kSink:
    case LogicalKind::kJoin:
    case LogicalKind::kRank:
    case LogicalKind::kOverAggregate:
    case LogicalKind::kExpand:
    case LogicalKind::kCorrelate:
      return std::nullopt;
  }
  return std::nullopt;
}

bool IsWindowRank(const LogicalNode& rank, int* window_start, int* window_end) {
  if (rank.kind != LogicalKind::kRank || rank.rank.origin != RankSpec::Origin::kRowNumber ||
      rank.rank.function != RankSpec::Function::kRowNumber || !rank.input().mode.IsInsertOnly()) {
    return false;
  }
  int start = -1, end = -1;
  const LogicalNode* origin = nullptr;
  for (int k : rank.rank.partition_keys) {
    std::optional<WindowBound> b = FindWindowBound(rank.input(), k);
    if (!b || (origin != nullptr && b->origin != origin)) continue;
    origin = b->origin;
    (b->is_start ? start : end) = k;
  }
  if (start < 0 || end < 0) return false;
  if (window_start) *window_start = start;
  if (window_end) *window_end = end;
  return true;
}

bool IsWindowDeduplicate(const LogicalNode& rank) {
  return IsWindowRank(rank) && rank.rank.rank_start == 1 && rank.rank.rank_end == 1 &&
         !rank.rank.output_rank_number && rank.rank.order_keys.size() == 1 &&
         IsRowtimeColumn(rank.input(), rank.rank.order_keys[0].column);
}

bool IsDeduplicate(const LogicalNode& rank) {
  return rank.kind == LogicalKind::kRank && rank.rank.origin == RankSpec::Origin::kRowNumber &&
         rank.rank.function == RankSpec::Function::kRowNumber && !IsWindowRank(rank) &&
         rank.rank.rank_start == 1 && rank.rank.rank_end == 1 && !rank.rank.output_rank_number &&
         rank.rank.order_keys.size() == 1 &&
         TimeAttributeOf(rank.input(), rank.rank.order_keys[0].column) != TimeAttribute::kNone &&
         rank.input().mode.IsInsertOnly();
}

bool IsIntervalJoin(const LogicalNode& join) {
  return join.kind == LogicalKind::kJoin && join.time_bounds.has_value() &&
         join.input(0).mode.IsInsertOnly() && join.input(1).mode.IsInsertOnly();
}

std::string JoinTypeName(JoinType type) {
  switch (type) {
    case JoinType::kInner:
      return "inner";
    case JoinType::kLeft:
      return "left";
    case JoinType::kRight:
      return "right";
    case JoinType::kFull:
      return "full";
    case JoinType::kSemi:
      return "semi";
    case JoinType::kAnti:
      return "anti";
  }
  return "?";
}

std::string JoinTypeDigest(JoinType type) {
  switch (type) {
    case JoinType::kInner:
      return "InnerJoin";
    case JoinType::kLeft:
      return "LeftOuterJoin";
    case JoinType::kRight:
      return "RightOuterJoin";
    case JoinType::kFull:
      return "FullOuterJoin";
    case JoinType::kSemi:
      return "LeftSemiJoin";
    case JoinType::kAnti:
      return "LeftAntiJoin";
  }
  return "?";
}

TimeAttribute TimeAttributeOf(const LogicalNode& n, int column) {
  switch (n.kind) {
    case LogicalKind::kWatermarkAssigner:
      return column == n.rowtime ? TimeAttribute::kRowtime : TimeAttributeOf(n.input(), column);
    case LogicalKind::kFilter:
      return TimeAttributeOf(n.input(), column);
    case LogicalKind::kProject: {
      const Expr& e = *n.projections[column];
      if (e.kind == ExprKind::kCall && e.function == "PROCTIME") return TimeAttribute::kProctime;
      return e.kind == ExprKind::kColumn ? TimeAttributeOf(n.input(), e.column)
                                         : TimeAttribute::kNone;
    }
    case LogicalKind::kUnion: {
      const TimeAttribute first = TimeAttributeOf(*n.inputs[0], column);
      for (const auto& in : n.inputs) {
        if (TimeAttributeOf(*in, column) != first) return TimeAttribute::kNone;
      }
      return first;
    }
    case LogicalKind::kWindowTableFunction:
      // window_time is a time attribute of the window's kind.
      if (column == static_cast<int>(n.schema.size()) - 1) {
        return TimeAttributeOf(n.input(), n.window.time_column);
      }
      return column < static_cast<int>(n.input().schema.size()) ? TimeAttributeOf(n.input(), column)
                                                                : TimeAttribute::kNone;
    case LogicalKind::kWindowAggregate:
      // window_time, when grouped by, is a time attribute of the window's kind (the operator emits
      // a window's rows before passing on the watermark that fired it).
      if (n.window_time && column == static_cast<int>(n.schema.size()) - 1) {
        return TimeAttributeOf(n.input(), n.window.time_column);
      }
      return TimeAttribute::kNone;
    case LogicalKind::kTableScan:
    case LogicalKind::kValues:
    case LogicalKind::kAggregate:
    case LogicalKind::kSink:
      return TimeAttribute::kNone;
    case LogicalKind::kRank:           // the input's rows: their times stay attributes, as in Flink
    case LogicalKind::kOverAggregate:  // each input row once, in time order
      return column < static_cast<int>(n.input().schema.size()) ? TimeAttributeOf(n.input(), column)
                                                                : TimeAttribute::kNone;
    case LogicalKind::kCorrelate:  // the input row's columns keep their attributes
      return column < static_cast<int>(n.input().schema.size()) ? TimeAttributeOf(n.input(), column)
                                                                : TimeAttribute::kNone;
    case LogicalKind::kExpand: {
      // A column every projection copies from one input column keeps its time attribute (the
      // rowtime of a window aggregate of grouping sets).
      if (column == n.expand_id_column) return TimeAttribute::kNone;
      const int source = n.expand_projections.front().columns[column];
      for (const ExpandProjection& p : n.expand_projections) {
        if (p.columns[column] != source) return TimeAttribute::kNone;
      }
      return source < 0 ? TimeAttribute::kNone : TimeAttributeOf(n.input(), source);
    }
    case LogicalKind::kJoin: {
      // An interval join keeps both sides' time attributes (it holds its watermark back), a
      // temporal join the left side's; a regular join's output times are no longer attributes
      // (Flink). Before the optimizer marks it, an interval join is known by its condition.
      const int nl = static_cast<int>(n.input(0).schema.size());
      if (n.temporal) {
        return column < nl ? TimeAttributeOf(n.input(0), column) : TimeAttribute::kNone;
      }
      if (!n.time_bounds && !FindTimeBounds(n)) return TimeAttribute::kNone;
      return column < nl ? TimeAttributeOf(n.input(0), column)
                         : TimeAttributeOf(n.input(1), column - nl);
    }
  }
  return TimeAttribute::kNone;  // not reached: every kind is a case above
}

bool IsRowtimeColumn(const LogicalNode& n, int column) {
  return TimeAttributeOf(n, column) == TimeAttribute::kRowtime;
}

bool IsProctimeColumn(const LogicalNode& n, int column) {
  return TimeAttributeOf(n, column) == TimeAttribute::kProctime;
}

std::string RankFunctionName(RankSpec::Function function) {
  switch (function) {
    case RankSpec::Function::kRowNumber:
      return "ROW_NUMBER";
    case RankSpec::Function::kRank:
      return "RANK";
    case RankSpec::Function::kDenseRank:
      return "DENSE_RANK";
  }
  return "?";
}

std::string WindowKindName(WindowSpec::Kind kind) {
  switch (kind) {
    case WindowSpec::Kind::kTumble:
      return "TUMBLE";
    case WindowSpec::Kind::kHop:
      return "HOP";
    case WindowSpec::Kind::kCumulate:
      return "CUMULATE";
    case WindowSpec::Kind::kSession:
      return "SESSION";
  }
  return "?";
}

std::string LogicalNodeName(LogicalKind kind) {
  switch (kind) {
    case LogicalKind::kTableScan:
      return "LogicalTableScan";
    case LogicalKind::kValues:
      return "LogicalValues";
    case LogicalKind::kProject:
      return "LogicalProject";
    case LogicalKind::kFilter:
      return "LogicalFilter";
    case LogicalKind::kAggregate:
      return "LogicalAggregate";
    case LogicalKind::kUnion:
      return "LogicalUnion";
    case LogicalKind::kSink:
      return "LogicalSink";
    case LogicalKind::kWatermarkAssigner:
      return "LogicalWatermarkAssigner";
    case LogicalKind::kWindowTableFunction:
      return "LogicalTableFunctionScan";
    case LogicalKind::kWindowAggregate:
      return "LogicalWindowAggregate";
    case LogicalKind::kJoin:
      return "LogicalJoin";
    case LogicalKind::kRank:
      return "LogicalRank";
    case LogicalKind::kOverAggregate:
      return "LogicalOverAggregate";
    case LogicalKind::kExpand:
      return "LogicalExpand";
    case LogicalKind::kCorrelate:
      return "LogicalCorrelate";
  }
  return "Logical?";
}

bool IsIdentityProject(const LogicalNode& p) {
  if (p.kind != LogicalKind::kProject) return false;
  const Schema& in = p.input().schema;
  if (p.projections.size() != in.size()) return false;
  for (size_t i = 0; i < p.projections.size(); ++i) {
    const Expr& e = *p.projections[i];
    if (e.kind != ExprKind::kColumn || e.column != static_cast<int>(i)) return false;
    // A rename alone keeps the data identical; a type change would not.
    if (!(e.type == in.fields[i].type)) return false;
  }
  return true;
}

}  // namespace eddy::planner
