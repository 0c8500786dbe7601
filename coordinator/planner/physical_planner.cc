#include "coordinator/planner/physical_planner.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/base/status_macros.h"
#include "common/batch/batch_codec.h"
#include "common/batch/changelog_batch.h"
#include "common/expr/expr_proto.h"
#include "common/expr/function_registry.h"
#include "common/expr/zoned_calls.h"
#include "common/types/time_zone.h"
#include "common/types/type_proto.h"
#include "common/udf/user_library.h"
#include "coordinator/planner/config_values.h"
#include "coordinator/planner/connector_options.h"
#include "coordinator/planner/expr_util.h"
#include "coordinator/planner/logical_rewrite.h"
#include "coordinator/planner/plan_digest.h"
#include "coordinator/planner/planner_errors.h"
#include "coordinator/planner/reuse_sub_plans.h"
#include "coordinator/planner/state_ids.h"
#include "coordinator/planner/unique_keys.h"

namespace eddy::planner {
namespace {

// Marks `p` as running in processing time, with the time column of each input (-1: none).
void SetProcessingTime(v1::PlanNode* p, const std::vector<int>& time_columns) {
  for (int c : time_columns) p->mutable_processing_time()->add_time_columns(c);
}

// Rows per ValuesSource batch.
constexpr size_t kValuesBatchRows = 1024;

// ORDER BY items as SortFields (below).
void FillOrderBy(const std::vector<SortKey>& keys,
                 google::protobuf::RepeatedPtrField<v1::SortField>* out);

// A catalog table's identifier by parts, as the plan carries it.
void FillTablePath(const ObjectPath& path, v1::TablePath* out) {
  out->set_catalog(path.catalog);
  out->set_database(path.database);
  out->set_table(path.object);
}

// The generic source of `scan`: its connector, options, the columns the connector produces, the
// ones read, and the planning time; the connector parses the options where it runs.
void FillTableSource(const LogicalNode& scan, int64_t plan_time_ms, v1::TableSource* out) {
  const CatalogTable& table = *scan.table;
  const ConnectorTable columns = ConnectorTableOf(table);
  out->set_connector(table.connector());
  out->set_table_name(columns.name);
  FillTablePath(table.path, out->mutable_table_path());
  for (const auto& [k, v] : table.options) {
    if (k != "connector") (*out->mutable_options())[k] = v;
  }
  SchemaToProto(columns.columns, out->mutable_table_schema());
  if (scan.scan_columns.empty()) {
    for (size_t c = 0; c < columns.columns.size(); ++c) out->add_columns(static_cast<int>(c));
  }
  for (int c : scan.scan_columns) out->add_columns(c);
  for (const std::string& key : columns.metadata_keys) out->add_metadata_keys(key);
  for (int c : columns.primary_key) out->add_primary_key(c);
  for (int c : columns.partition_keys) out->add_partition_keys(c);
  if (scan.partitions) {
    out->set_partitions_pruned(true);
    for (const std::string& dir : *scan.partitions) out->add_partitions(dir);
  }
  out->set_plan_time_ms(plan_time_ms);
}

void FillValues(const LogicalNode& values, v1::ValuesSource* out) {
  const std::vector<DataType> types = values.schema.Types();
  for (size_t begin = 0; begin < values.rows.size(); begin += kValuesBatchRows) {
    ChangelogBatch batch(types);
    size_t end = std::min(values.rows.size(), begin + kValuesBatchRows);
    batch.Reserve(end - begin);
    for (size_t r = begin; r < end; ++r) batch.AppendValues(values.rows[r], RowKind::kInsert);
    EncodeBatch(batch, out->add_batches());
  }
}

void FillCalls(const std::vector<LogicalAggCall>& calls,
               google::protobuf::RepeatedPtrField<v1::AggregateCall>* out) {
  for (const LogicalAggCall& c : calls) {
    v1::AggregateCall* call = out->Add();
    call->set_function(std::string(AggKindName(c.kind)));
    call->set_count_star(c.kind == AggKind::kCountStar);
    call->set_arg(c.kind == AggKind::kCountStar ? -1 : c.arg);
    call->set_distinct(c.distinct);
    if (c.kind != AggKind::kCountStar) TypeToProto(c.arg_type, call->mutable_arg_type());
    TypeToProto(c.result_type, call->mutable_result_type());
    if (c.kind == AggKind::kListAgg) {
      call->set_separator(c.separator.value_or(std::string(kDefaultListAggSeparator)));
    }
    if (c.kind == AggKind::kUser) {
      call->set_function(c.user_name);
      call->mutable_user_function()->set_library_digest(c.user_function->library().digest());
      call->mutable_user_function()->set_symbol(c.user_function->symbol());
      for (int a : c.user_args) call->add_user_args(a);
    }
  }
}

// The zone the windows of `windowed` (a window TVF or aggregate) count in (WindowClock): the
// session's when their time attribute is a TIMESTAMP_LTZ and the zone is not UTC, as Flink aligns
// them; empty otherwise.
std::string WindowTimeZone(const LogicalNode& windowed) {
  const LogicalNode& input = windowed.input();
  const int column = windowed.window.time_column;
  if (column < 0 || column >= static_cast<int>(input.schema.size()) ||
      input.schema.fields[column].type.id != TypeId::kTimestampLtz) {
    return "";
  }
  absl::StatusOr<SessionTimeZone> zone = SessionTimeZone::Parse(PlanningTimeZone());
  return zone.ok() && !zone->IsUtc() ? PlanningTimeZone() : "";
}

void FillWindow(const WindowSpec& window, v1::Window* out) {
  switch (window.kind) {
    case WindowSpec::Kind::kTumble:
      out->set_kind(v1::Window::TUMBLE);
      break;
    case WindowSpec::Kind::kHop:
      out->set_kind(v1::Window::HOP);
      break;
    case WindowSpec::Kind::kCumulate:
      out->set_kind(v1::Window::CUMULATE);
      break;
    case WindowSpec::Kind::kSession:  // planned as a SessionWindowAggregate, never a v1::Window
      out->set_kind(v1::Window::KIND_UNSPECIFIED);
      break;
  }
  out->set_size_ms(window.size_ms);
  out->set_slide_ms(window.slide_ms);
  out->set_step_ms(window.step_ms);
  out->set_offset_ms(window.offset_ms);
  out->set_time_column(window.time_column);
}

}  // namespace

v1::PlanNode* PhysicalPlanner::NewNode(const LogicalNode& logical, const Schema& schema) {
  v1::PlanNode& n = nodes_.emplace_back();
  modes_.push_back(logical.mode);
  n.set_id(static_cast<int>(nodes_.size()) - 1);
  SchemaToProto(schema, n.mutable_output_schema());
  return &n;
}

void PhysicalPlanner::PlanMiniBatchAssigners(const std::vector<LogicalNodePtr>& roots) {
  if (mini_batch_.size <= 0) return;
  std::unordered_set<const LogicalNode*> seen;  // visited below an aggregate
  auto visit = [&](auto&& self, const LogicalNode& n, bool below_aggregate) -> void {
    below_aggregate = below_aggregate || n.kind == LogicalKind::kAggregate;
    if (below_aggregate && !seen.insert(&n).second) return;
    if (below_aggregate && (n.kind == LogicalKind::kTableScan || n.kind == LogicalKind::kValues)) {
      mini_batch_sources_.insert(&n);
    }
    for (const auto& in : n.inputs) self(self, *in, below_aggregate);
  };
  for (const auto& root : roots) visit(visit, *root, false);
}

int PhysicalPlanner::WithMiniBatchAssigner(const LogicalNode& logical, int source) {
  if (!mini_batch_sources_.count(&logical)) return source;
  v1::PlanNode* p = NewNode(logical, logical.schema);
  p->add_inputs(source);
  p->set_description(MiniBatchAssignerDigest(mini_batch_.latency_ms));
  p->mutable_mini_batch_assigner()->set_interval_ms(mini_batch_.latency_ms);
  return p->id();
}

absl::StatusOr<int> PhysicalPlanner::Translate(const LogicalNodePtr& root) {
  if (auto it = ids_.find(root.get()); it != ids_.end()) return it->second;
  const LogicalNode& n = *root;
  int id = -1;
  if (batch_ && n.batch_materialize) {
    // The node as it runs (its own changes), then the materializer that makes them final rows.
    auto own = std::make_shared<LogicalNode>(n);
    own->batch_materialize = false;
    own->mode = n.own_mode;
    own->requires_update_before = true;
    materialized_.push_back(own);  // kept alive: ids_ is keyed by node address
    ASSIGN_OR_RETURN(int in, Translate(own));
    v1::PlanNode* p = NewNode(n, n.schema);
    p->add_inputs(in);
    p->set_description("ChangelogMaterialize");
    p->mutable_changelog_materialize();
    ids_[root.get()] = p->id();
    return p->id();
  }
  switch (n.kind) {
    case LogicalKind::kTableScan: {
      v1::PlanNode* p = NewNode(n, n.schema);
      p->set_description(TableScanDigest(n));
      const ConnectorFactory* factory = ConnectorOf(*n.table);
      if (factory == nullptr || !factory->can_read()) {
        return absl::InternalError(absl::StrCat("connector '", n.table->connector(),
                                                "' cannot be read (table ",
                                                n.table->path.ToString(), ")"));
      }
      FillTableSource(n, plan_time_ms_, p->mutable_table_source());
      ConnectorConfig config = ConnectorConfigOf(*n.table);
      const bool bounded = factory->Bounded(ConnectorTableOf(*n.table), config);
      if (batch_ && !bounded) {
        return ValidationError(absl::StrCat("Querying an unbounded table '",
                                            n.table->path.ToString(),
                                            "' in batch mode is not allowed. The table source is "
                                            "unbounded."));
      }
      bounded_ = bounded_ && bounded;
      id = WithMiniBatchAssigner(n, p->id());
      break;
    }
    case LogicalKind::kValues: {
      v1::PlanNode* p = NewNode(n, n.schema);
      p->set_description(ValuesDigest(n));
      FillValues(n, p->mutable_values());
      id = WithMiniBatchAssigner(n, p->id());
      break;
    }
    case LogicalKind::kProject:
    case LogicalKind::kFilter: {
      ASSIGN_OR_RETURN(id, TranslateCalc(root));
      break;
    }
    case LogicalKind::kAggregate: {
      ASSIGN_OR_RETURN(int in, Translate(n.inputs[0]));
      // Flink splits only with mini-batch on (AUTO or TWO_PHASE).
      std::optional<PartialLayout> split;
      if (mini_batch_.size > 0 && agg_phase_ != AggPhaseStrategy::kOnePhase) {
        split = SplitAggregate(n);
      }
      if (split) {
        id = TranslateTwoPhase(n, in, *split);
        break;
      }
      v1::PlanNode* p = NewNode(n, n.schema);
      p->add_inputs(in);
      if (batch_) {
        // Final rows once, at the end of input (insert-only input: every updating node below
        // was materialized).
        p->set_description(HashAggregateDigest(n));
        v1::GroupAggregate* agg = p->mutable_hash_aggregate();
        for (int k : n.group_keys) agg->add_group_keys(k);
        FillCalls(n.calls, agg->mutable_calls());
        agg->set_input_insert_only(true);
        id = p->id();
        break;
      }
      p->set_description(AggregateDigest(n));
      FillAggregate(n, p->mutable_group_aggregate());
      id = p->id();
      if (SplitAggregate(n)) splittable_one_phase_aggregates_.insert(id);
      break;
    }
    case LogicalKind::kWatermarkAssigner: {
      ASSIGN_OR_RETURN(int in, Translate(n.inputs[0]));
      v1::PlanNode* p = NewNode(n, n.schema);
      p->add_inputs(in);
      p->set_description(WatermarkAssignerDigest(n));
      v1::WatermarkAssigner* w = p->mutable_watermark_assigner();
      w->set_rowtime(n.rowtime);
      ExprToProto(*n.watermark, w->mutable_watermark());
      w->set_idle_timeout_ms(source_idle_timeout_ms_);
      id = p->id();
      break;
    }
    case LogicalKind::kWindowAggregate: {
      for (const LogicalAggCall& c : n.calls) {
        if (c.kind == AggKind::kUser) {
          return ValidationError(absl::StrCat("the user-defined aggregate function '", c.user_name,
                                              "' is not supported in window aggregations yet"));
        }
      }
      ASSIGN_OR_RETURN(int in, Translate(n.inputs[0]));
      v1::PlanNode* p = NewNode(n, n.schema);
      p->add_inputs(in);
      p->set_description(WindowAggregateDigest(n));
      if (IsProctimeColumn(n.input(), n.window.time_column)) {
        SetProcessingTime(p, {n.window.time_column});
      }
      if (n.window.kind == WindowSpec::Kind::kSession) {
        v1::SessionWindowAggregate* s = p->mutable_session_window_aggregate();
        for (int k : n.group_keys) s->add_group_keys(k);
        FillCalls(n.calls, s->mutable_calls());
        s->set_time_column(n.window.time_column);
        s->set_gap_ms(n.window.gap_ms);
        s->set_local_time_zone(WindowTimeZone(n));
        id = p->id();
        break;
      }
      v1::WindowAggregate* w = p->mutable_window_aggregate();
      FillWindow(n.window, w->mutable_window());
      w->mutable_window()->set_local_time_zone(WindowTimeZone(n));
      for (int k : n.group_keys) w->add_group_keys(k);
      FillCalls(n.calls, w->mutable_calls());
      id = p->id();
      break;
    }
    case LogicalKind::kWindowTableFunction: {
      if (n.window.kind == WindowSpec::Kind::kSession) {
        return ValidationError(
            "a SESSION window is supported in a window aggregation only: GROUP BY window_start, "
            "window_end and exactly the columns of its PARTITION BY");
      }
      ASSIGN_OR_RETURN(int in, Translate(n.inputs[0]));
      v1::PlanNode* p = NewNode(n, n.schema);
      p->add_inputs(in);
      p->set_description(WindowTableFunctionDigest(n));
      v1::Window* window = p->mutable_window_table_function()->mutable_window();
      FillWindow(n.window, window);
      window->set_local_time_zone(WindowTimeZone(n));
      id = p->id();
      break;
    }
    case LogicalKind::kJoin: {
      ASSIGN_OR_RETURN(int left, Translate(n.inputs[0]));
      ASSIGN_OR_RETURN(int right, Translate(n.inputs[1]));
      v1::PlanNode* p = NewNode(n, n.schema);
      p->add_inputs(left);
      p->add_inputs(right);
      if (n.temporal) {
        p->set_description(TemporalJoinDigest(n));
        RETURN_IF_ERROR(FillTemporalJoin(n, p->mutable_temporal_join()));
      } else if (IsIntervalJoin(n)) {
        p->set_description(IntervalJoinDigest(n));
        if (IsProctimeColumn(n.input(0), n.time_bounds->left_time)) {
          SetProcessingTime(p, {n.time_bounds->left_time, n.time_bounds->right_time});
        }
        RETURN_IF_ERROR(FillIntervalJoin(n, p->mutable_interval_join()));
      } else {
        p->set_description(JoinDigest(n));
        RETURN_IF_ERROR(FillJoin(n, p->mutable_join()));
      }
      id = p->id();
      break;
    }
    case LogicalKind::kRank: {
      ASSIGN_OR_RETURN(int in, Translate(n.inputs[0]));
      v1::PlanNode* p = NewNode(n, n.schema);
      p->add_inputs(in);
      if (batch_ && (n.rank.origin == RankSpec::Origin::kSort ||
                     n.rank.origin == RankSpec::Origin::kSortLimit)) {
        p->set_description(BatchSortDigest(n));
        v1::Sort* sort = p->mutable_sort();
        FillOrderBy(n.rank.order_keys, sort->mutable_order_by());
        sort->set_offset(n.rank.rank_start - 1);
        sort->set_fetch(n.rank.origin == RankSpec::Origin::kSort
                            ? -1
                            : n.rank.rank_end - n.rank.rank_start + 1);
        id = p->id();
        break;
      }
      p->set_description(RankDigest(n));
      RETURN_IF_ERROR(FillRank(n, p));
      id = p->id();
      break;
    }
    case LogicalKind::kOverAggregate: {
      ASSIGN_OR_RETURN(int in, Translate(n.inputs[0]));
      v1::PlanNode* p = NewNode(n, n.schema);
      p->add_inputs(in);
      p->set_description(OverAggregateDigest(n));
      if (IsProctimeColumn(n.input(), n.over.time_column)) {
        SetProcessingTime(p, {n.over.time_column});
      }
      v1::OverAggregate* o = p->mutable_over_aggregate();
      for (int k : n.over.partition_keys) o->add_partition_keys(k);
      o->set_time_column(n.over.time_column);
      o->set_frame(n.over.rows ? v1::OverAggregate::ROWS : v1::OverAggregate::RANGE);
      o->set_preceding(n.over.preceding);
      FillCalls(n.calls, o->mutable_calls());
      o->set_state_ttl_ms(state_ttl_ms_);
      id = p->id();
      break;
    }
    case LogicalKind::kExpand: {
      ASSIGN_OR_RETURN(int in, Translate(n.inputs[0]));
      v1::PlanNode* p = NewNode(n, n.schema);
      p->add_inputs(in);
      p->set_description(ExpandDigest(n));
      v1::Expand* e = p->mutable_expand();
      for (const ExpandProjection& projection : n.expand_projections) {
        v1::Expand::Projection* out = e->add_projections();
        for (int c : projection.columns) out->add_columns(c);
        out->set_expand_id(projection.expand_id);
      }
      e->set_expand_id_column(n.expand_id_column);
      id = p->id();
      break;
    }
    case LogicalKind::kCorrelate: {
      ASSIGN_OR_RETURN(int in, Translate(n.inputs[0]));
      v1::PlanNode* p = NewNode(n, n.schema);
      p->add_inputs(in);
      p->set_description(CorrelateDigest(n));
      v1::Correlate* c = p->mutable_correlate();
      c->set_function(n.table_function_name);
      c->mutable_user_function()->set_library_digest(n.table_function->library().digest());
      c->mutable_user_function()->set_symbol(n.table_function->symbol());
      for (const auto& a : n.projections) ExprToProto(*a, c->add_args());
      c->set_left_outer(n.join_type == JoinType::kLeft);
      id = p->id();
      break;
    }
    case LogicalKind::kUnion: {
      std::vector<int> ins;
      for (const auto& in : n.inputs) {
        ASSIGN_OR_RETURN(int i, Translate(in));
        ins.push_back(i);
      }
      v1::PlanNode* p = NewNode(n, n.schema);
      for (int i : ins) p->add_inputs(i);
      p->set_description(UnionDigest(n));
      p->mutable_union_all();
      id = p->id();
      break;
    }
    case LogicalKind::kSink: {
      ASSIGN_OR_RETURN(int in, Translate(n.inputs[0]));
      v1::PlanNode* p = NewNode(n, n.input().schema);
      p->add_inputs(in);
      p->set_description(SinkDigest(n));
      v1::TableSink* sink = p->mutable_sink();
      sink->set_table_name(n.sink_table->path.ToString());
      FillTablePath(n.sink_table->path, sink->mutable_table_path());
      sink->set_connector(n.sink_table->connector());
      for (const auto& [k, v] : n.sink_table->options) {
        if (k != "connector") (*sink->mutable_options())[k] = v;
      }
      // The connector writes the table's columns under the table's names (JSON field names),
      // whatever the query called them.
      const ConnectorTable columns = ConnectorTableOf(*n.sink_table, /*sink=*/true);
      for (int i = 0;
           i < p->output_schema().fields_size() && i < static_cast<int>(columns.columns.size());
           ++i) {
        p->mutable_output_schema()->mutable_fields(i)->set_name(columns.columns.fields[i].name);
        sink->add_metadata_keys(columns.metadata_keys[i]);
      }
      for (int c : columns.primary_key) sink->add_primary_key(c);
      // Batch mode: the files are published once, when the job finishes (a failed attempt's
      // output never shows, a restarted one starts over); INSERT OVERWRITE replaces the table's.
      if (batch_ && n.sink_table->connector() == "filesystem") sink->set_commit_at_job_end(true);
      sink->set_overwrite(n.overwrite);
      for (int c : columns.partition_keys) sink->add_partition_keys(c);
      // The table's physical NOT NULL columns, enforced where the sink writes (as Flink, every
      // one of them: a column whose input cannot be null costs one look at its null count).
      for (int i = 0;
           i < p->output_schema().fields_size() && i < static_cast<int>(columns.columns.size());
           ++i) {
        if (!columns.IsMetadata(i) && !columns.columns.fields[i].type.nullable) {
          sink->add_not_null_columns(i);
        }
      }
      sink->set_drop_rows_with_nulls(drop_rows_with_nulls_);
      id = p->id();
      break;
    }
  }
  ids_[root.get()] = id;
  return id;
}

namespace {

void FillOrderBy(const std::vector<SortKey>& keys,
                 google::protobuf::RepeatedPtrField<v1::SortField>* out) {
  for (const SortKey& k : keys) {
    v1::SortField* f = out->Add();
    f->set_column(k.column);
    f->set_descending(k.descending);
    f->set_nulls_first(k.nulls_first);
  }
}

}  // namespace

absl::Status PhysicalPlanner::FillRank(const LogicalNode& n, v1::PlanNode* p) const {
  const RankSpec& r = n.rank;
  if (r.origin == RankSpec::Origin::kTemporalSort) {
    v1::TemporalSort* sort = p->mutable_temporal_sort();
    sort->set_time_column(r.order_keys[0].column);
    FillOrderBy(std::vector<SortKey>(r.order_keys.begin() + 1, r.order_keys.end()),
                sort->mutable_secondary());
    if (IsProctimeColumn(n.input(), r.order_keys[0].column)) {
      SetProcessingTime(p, {r.order_keys[0].column});
    }
    return absl::OkStatus();
  }
  if (r.rank_end < 0) {
    return ValidationError(
        "ROW_NUMBER() OVER (...) runs only as a Top-N: filter its result with a constant upper "
        "bound in an enclosing query, e.g. WHERE row_num <= 10");
  }
  if (r.rank_end < r.rank_start) {
    return ValidationError(absl::StrCat("the filter on ROW_NUMBER() leaves no rows (rank ",
                                        r.rank_start, " to ", r.rank_end, ")"));
  }
  int window_start = -1, window_end = -1;
  if (IsWindowRank(n, &window_start, &window_end)) {
    v1::WindowRank* w = p->mutable_window_rank();
    for (int k : r.partition_keys) {
      if (k != window_start && k != window_end) w->add_partition_keys(k);
    }
    FillOrderBy(r.order_keys, w->mutable_order_by());
    w->set_rank_start(r.rank_start);
    w->set_rank_end(r.rank_end);
    w->set_output_rank_number(r.output_rank_number);
    w->set_window_start_column(window_start);
    w->set_window_end_column(window_end);
    // Keep-last window deduplication replaces its row with one at least as late (Flink).
    w->set_later_ties_first(IsWindowDeduplicate(n) && r.order_keys[0].descending);
    // Windows of processing time close by the wall clock.
    const LogicalNode& origin = *FindWindowBound(n.input(), window_start)->origin;
    w->set_local_time_zone(WindowTimeZone(origin));
    if (IsProctimeColumn(origin.input(), origin.window.time_column)) SetProcessingTime(p, {-1});
    return absl::OkStatus();
  }
  if (IsDeduplicate(n)) {
    v1::Deduplicate* d = p->mutable_deduplicate();
    for (int k : r.partition_keys) d->add_keys(k);
    d->set_time_column(r.order_keys[0].column);
    if (IsProctimeColumn(n.input(), r.order_keys[0].column)) {
      SetProcessingTime(p, {r.order_keys[0].column});
    }
    d->set_keep_last_row(r.order_keys[0].descending);
    d->set_generate_update_before(n.mode.update_before);
    d->set_state_ttl_ms(state_ttl_ms_);
    return absl::OkStatus();
  }
  v1::Rank* rank = p->mutable_rank();
  for (int k : r.partition_keys) rank->add_partition_keys(k);
  FillOrderBy(r.order_keys, rank->mutable_order_by());
  rank->set_rank_start(r.rank_start);
  rank->set_rank_end(r.rank_end);
  rank->set_output_rank_number(r.output_rank_number);
  // Over an insert-only input every function keeps only the rows ranked up to rank_end
  // (ties included for RANK and DENSE_RANK).
  rank->set_strategy(n.input().mode.IsInsertOnly() ? v1::Rank::APPEND_FAST : v1::Rank::RETRACT);
  rank->set_function(r.function == RankSpec::Function::kRank        ? v1::Rank::RANK
                     : r.function == RankSpec::Function::kDenseRank ? v1::Rank::DENSE_RANK
                                                                    : v1::Rank::ROW_NUMBER);
  rank->set_generate_update_before(n.mode.update_before);
  rank->set_state_ttl_ms(state_ttl_ms_);
  return absl::OkStatus();
}

void PhysicalPlanner::FillAggregate(const LogicalNode& n, v1::GroupAggregate* agg) const {
  for (int k : n.group_keys) agg->add_group_keys(k);
  FillCalls(n.calls, agg->mutable_calls());
  agg->set_generate_update_before(n.mode.update_before);
  agg->set_input_insert_only(n.inputs[0]->mode.IsInsertOnly());
  agg->set_mini_batch_size(mini_batch_.size);
  agg->set_mini_batch_latency_ms(mini_batch_.latency_ms);
  agg->set_state_ttl_ms(state_ttl_ms_);
}

namespace {

v1::Join::Type JoinTypeProto(JoinType type) {
  switch (type) {
    case JoinType::kInner:
      return v1::Join::INNER;
    case JoinType::kLeft:
      return v1::Join::LEFT_OUTER;
    case JoinType::kRight:
      return v1::Join::RIGHT_OUTER;
    case JoinType::kFull:
      return v1::Join::FULL_OUTER;
    case JoinType::kSemi:
      return v1::Join::SEMI;
    case JoinType::kAnti:
      return v1::Join::ANTI;
  }
  return v1::Join::TYPE_UNSPECIFIED;
}

bool NullSafe(const LogicalNode& n, size_t k) { return k < n.null_safe.size() && n.null_safe[k]; }

// Key pair k of `n` as a condition over its columns: `=`, or IS NOT DISTINCT FROM when null-safe.
absl::StatusOr<ExprPtr> KeyCondition(const LogicalNode& n, size_t k) {
  const int nl = static_cast<int>(n.input(0).schema.size());
  const int l = n.left_keys[k];
  const int r = n.right_keys[k];
  return MakeCall(NullSafe(n, k) ? "IS NOT DISTINCT FROM" : "=",
                  {MakeColumnRef(l, n.input(0).schema.fields[l].type),
                   MakeColumnRef(nl + r, n.input(1).schema.fields[r].type)});
}

}  // namespace

absl::Status PhysicalPlanner::FillIntervalJoin(const LogicalNode& n, v1::IntervalJoin* join) const {
  join->set_type(JoinTypeProto(n.join_type));
  // The interval join's keys never match NULL: a null-safe pair is a condition.
  std::vector<ExprPtr> condition;
  for (size_t k = 0; k < n.left_keys.size(); ++k) {
    if (NullSafe(n, k)) {
      ASSIGN_OR_RETURN(ExprPtr c, KeyCondition(n, k));
      condition.push_back(std::move(c));
      continue;
    }
    join->add_left_keys(n.left_keys[k]);
    join->add_right_keys(n.right_keys[k]);
  }
  join->set_left_time(n.time_bounds->left_time);
  join->set_right_time(n.time_bounds->right_time);
  join->set_lower_bound_ms(n.time_bounds->lower_ms);
  join->set_upper_bound_ms(n.time_bounds->upper_ms);
  if (n.condition) condition.push_back(n.condition);
  ASSIGN_OR_RETURN(ExprPtr all, MakeConjunction(condition));
  if (all) ExprToProto(*all, join->mutable_condition());
  return absl::OkStatus();
}

absl::Status PhysicalPlanner::FillTemporalJoin(const LogicalNode& n, v1::TemporalJoin* join) const {
  const LogicalNode::Temporal& t = *n.temporal;
  join->set_type(JoinTypeProto(n.join_type));
  // The versioned table is keyed by its primary key: those equalities are the keys, any other
  // equality a condition.
  std::vector<ExprPtr> condition;
  std::vector<bool> covered(t.right_primary_key.size(), false);
  for (size_t k = 0; k < n.left_keys.size(); ++k) {
    const int r = n.right_keys[k];
    auto it = std::find(t.right_primary_key.begin(), t.right_primary_key.end(), r);
    if (!NullSafe(n, k) && it != t.right_primary_key.end() &&
        !covered[it - t.right_primary_key.begin()]) {
      covered[it - t.right_primary_key.begin()] = true;
      join->add_left_keys(n.left_keys[k]);
      join->add_right_keys(r);
      continue;
    }
    ASSIGN_OR_RETURN(ExprPtr eq, KeyCondition(n, k));
    condition.push_back(std::move(eq));
  }
  for (size_t i = 0; i < covered.size(); ++i) {
    if (covered[i]) continue;
    return ValidationError(absl::StrCat(
        "Temporal table's primary key [", n.input(1).schema.fields[t.right_primary_key[i]].name,
        "] must be included in the equivalence condition of temporal join"));
  }
  if (n.condition) condition.push_back(n.condition);
  ASSIGN_OR_RETURN(ExprPtr all, MakeConjunction(condition));
  if (all) ExprToProto(*all, join->mutable_condition());
  // Processing time: both -1, each left row joins the key's latest row.
  join->set_left_time(t.proctime ? -1 : t.left_time);
  join->set_right_time(t.proctime ? -1 : t.right_time);
  return absl::OkStatus();
}

absl::Status PhysicalPlanner::FillJoin(const LogicalNode& n, v1::Join* join) const {
  join->set_type(JoinTypeProto(n.join_type));
  for (int k : n.left_keys) join->add_left_keys(k);
  for (int k : n.right_keys) join->add_right_keys(k);
  if (!n.null_safe.empty()) {
    for (size_t k = 0; k < n.left_keys.size(); ++k) join->add_null_safe(NullSafe(n, k));
  }
  // Time bounds over updating inputs: a regular join evaluates them as a condition.
  std::vector<ExprPtr> condition;
  if (n.condition) condition.push_back(n.condition);
  if (n.time_bounds) condition.push_back(n.time_bounds->conjuncts);
  ASSIGN_OR_RETURN(ExprPtr all, MakeConjunction(condition));
  if (all) ExprToProto(*all, join->mutable_condition());
  if (auto key = UniqueKey(n.input(0))) {
    for (int c : *key) join->add_left_unique_key(c);
  }
  if (auto key = UniqueKey(n.input(1))) {
    for (int c : *key) join->add_right_unique_key(c);
  }
  join->set_state_ttl_ms(state_ttl_ms_);
  // No consumer needs UPDATE_BEFORE (an upsert sink keyed by the join's upsert key).
  join->set_omit_update_before(n.mode.update_after && !n.mode.update_before);
  return absl::OkStatus();
}

int PhysicalPlanner::TranslateTwoPhase(const LogicalNode& n, int input,
                                       const PartialLayout& layout) {
  // Local: in the input's task, before the exchange; emits only inserts (partials).
  v1::PlanNode* local = NewNode(n, layout.schema);
  modes_.back() = ChangelogMode::InsertOnly();
  local->add_inputs(input);
  local->set_description(LocalAggregateDigest(n, layout));
  FillAggregate(n, local->mutable_local_group_aggregate());
  const int local_id = local->id();

  // Global: the keys are the partials' first columns, each call reads its partial fields.
  v1::PlanNode* global = NewNode(n, n.schema);
  global->add_inputs(local_id);
  global->set_description(GlobalAggregateDigest(n, layout));
  v1::GroupAggregate* agg = global->mutable_global_group_aggregate();
  FillAggregate(n, agg);
  for (int k = 0; k < agg->group_keys_size(); ++k) agg->set_group_keys(k, k);
  for (int c = 0; c < agg->calls_size(); ++c) {
    agg->mutable_calls(c)->set_arg(layout.first_column[c]);
  }
  if (layout.row_count_column >= 0) agg->set_partial_row_count_column(layout.row_count_column);
  return global->id();
}

absl::StatusOr<int> PhysicalPlanner::TranslateCalc(const LogicalNodePtr& top) {
  // Collect the chain of Project/Filter nodes down to the first other node.
  std::vector<const LogicalNode*> chain;
  LogicalNodePtr base = top;
  while (base->kind == LogicalKind::kProject || base->kind == LogicalKind::kFilter) {
    chain.push_back(base.get());
    base = base->inputs[0];
  }
  // Compose bottom-up into projections and a filter over `base`'s columns; a filter is evaluated
  // before the projections, so conditions above a Project are rewritten in terms of its inputs.
  std::vector<ExprPtr> projections;
  for (size_t i = 0; i < base->schema.size(); ++i) {
    projections.push_back(MakeColumnRef(static_cast<int>(i), base->schema.fields[i].type));
  }
  ExprPtr filter;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const LogicalNode& n = **it;
    if (n.kind == LogicalKind::kFilter) {
      ExprPtr cond = SubstituteColumns(n.condition, projections);
      if (filter) {
        ASSIGN_OR_RETURN(filter, MakeCall("AND", {filter, cond}));
      } else {
        filter = std::move(cond);
      }
    } else {
      std::vector<ExprPtr> next;
      for (const auto& e : n.projections) next.push_back(SubstituteColumns(e, projections));
      projections = std::move(next);
    }
  }
  ASSIGN_OR_RETURN(int in, Translate(base));
  bool identity = filter == nullptr && projections.size() == base->schema.size();
  for (size_t i = 0; identity && i < projections.size(); ++i) {
    identity = IsColumnRef(*projections[i], static_cast<int>(i)) &&
               projections[i]->type == base->schema.fields[i].type;
  }
  if (identity) return in;
  v1::PlanNode* p = NewNode(*top, top->schema);
  p->add_inputs(in);
  p->set_description(CalcDigest(projections, filter, base->schema.Names(), top->schema.Names()));
  v1::Calc* calc = p->mutable_calc();
  for (const auto& e : projections) ExprToProto(*e, calc->add_projections());
  if (filter) ExprToProto(*filter, calc->mutable_filter());
  return p->id();
}

absl::StatusOr<MiniBatchSettings> MiniBatchFromConfig(const ConfigMap& config) {
  MiniBatchSettings s;
  if (!ConfigFlag(config, "table.exec.mini-batch.enabled", false)) return s;
  ASSIGN_OR_RETURN(s.latency_ms,
                   ConfigDurationMs(config, "table.exec.mini-batch.allow-latency", 0));
  if (s.latency_ms <= 0) {
    return ValidationError(
        "'table.exec.mini-batch.enabled' is true, so 'table.exec.mini-batch.allow-latency' must "
        "be a positive duration (e.g. '1 s')");
  }
  ASSIGN_OR_RETURN(s.size,
                   ConfigPositiveInt(config, "table.exec.mini-batch.size", kDefaultMiniBatchSize));
  return s;
}

absl::StatusOr<PhysicalPlan> BuildPhysicalPlan(const std::vector<LogicalNodePtr>& roots,
                                               const ConfigMap& config) {
  ASSIGN_OR_RETURN(MiniBatchSettings mini_batch, MiniBatchFromConfig(config));
  ASSIGN_OR_RETURN(AggPhaseStrategy agg_phase, AggPhaseStrategyFromConfig(config));
  const bool batch = IsBatchMode(config);
  // Batch aggregates see all their input before they emit: no mini-batches, one phase.
  if (batch) mini_batch = {};
  PhysicalPlanner physical(mini_batch, agg_phase);
  physical.set_batch(batch);
  ASSIGN_OR_RETURN(int64_t state_ttl_ms, ConfigDurationMs(config, "table.exec.state.ttl", 0));
  physical.set_state_ttl_ms(state_ttl_ms);
  ASSIGN_OR_RETURN(int64_t idle_timeout,
                   ConfigDurationMs(config, "table.exec.source.idle-timeout", 0));
  physical.set_source_idle_timeout_ms(idle_timeout);
  ASSIGN_OR_RETURN(bool drop_rows_with_nulls, DropsRowsWithNullsInNotNullColumns(config));
  physical.set_drop_rows_with_nulls(drop_rows_with_nulls);
  physical.PlanMiniBatchAssigners(roots);
  PhysicalPlan plan;
  for (const auto& root : roots) {
    ASSIGN_OR_RETURN(int id, physical.Translate(root));
    plan.roots.push_back(id);
  }
  plan.nodes = std::move(physical.nodes());
  plan.modes = std::move(physical.modes());
  plan.bounded = physical.bounded();
  std::vector<int> remap = ReuseSubPlans(ReuseOptionsFromConfig(config), &plan.nodes, &plan.modes);
  for (int& id : plan.roots) id = remap[id];
  for (int id : physical.splittable_one_phase_aggregates()) {
    plan.splittable_one_phase_aggregates.insert(remap[id]);
  }
  // After reuse: the ids derive from the final node ids.
  AssignStateIds(&plan.nodes);
  return plan;
}

}  // namespace eddy::planner
