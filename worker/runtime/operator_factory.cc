#include "worker/runtime/operator_factory.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/batch/batch_codec.h"
#include "common/expr/aggregate_signature.h"
#include "common/expr/expr_proto.h"
#include "common/types/type_proto.h"
#include "worker/connectors/filesystem_partition_committer.h"
#include "worker/connectors/values_source.h"
#include "worker/exchange/exchange_sink.h"
#include "worker/exchange/exchange_source.h"
#include "worker/operators/batch_sort.h"
#include "worker/operators/calc_operator.h"
#include "worker/operators/changelog_materialize.h"
#include "worker/operators/deduplicate_operator.h"
#include "worker/operators/expand_operator.h"
#include "worker/operators/group_aggregate.h"
#include "worker/operators/hash_aggregate.h"
#include "worker/operators/interval_join.h"
#include "worker/operators/local_group_aggregate.h"
#include "worker/operators/mini_batch_assigner.h"
#include "worker/operators/over_aggregate.h"
#include "worker/operators/processing_time_operator.h"
#include "worker/operators/rank_operator.h"
#include "worker/operators/session_window_aggregate.h"
#include "worker/operators/streaming_join.h"
#include "worker/operators/temporal_join.h"
#include "worker/operators/temporal_sort.h"
#include "worker/operators/union_operator.h"
#include "worker/operators/watermark_assigner.h"
#include "worker/operators/window_aggregate.h"
#include "worker/operators/window_rank_operator.h"
#include "worker/operators/window_table_function.h"
#include "worker/runtime/connector_registry.h"
#include "worker/runtime/user_function_nodes.h"

namespace eddy {
namespace {

absl::Status NodeError(const v1::PlanNode& node, const absl::Status& s) {
  return absl::Status(s.code(), absl::StrCat("plan node ", node.id(), " (", node.description(),
                                             "): ", s.message()));
}

absl::StatusOr<BuiltNode> BuildCalc(const v1::PlanNode& node, const std::vector<DataType>& in) {
  std::vector<ExprPtr> projections;
  for (const auto& p : node.calc().projections()) {
    ASSIGN_OR_RETURN(ExprPtr e, ExprFromProto(p, in));
    projections.push_back(std::move(e));
  }
  ExprPtr filter;
  if (node.calc().has_filter()) {
    ASSIGN_OR_RETURN(filter, ExprFromProto(node.calc().filter(), in));
  }
  BuiltNode built;
  built.op = std::make_unique<CalcOperator>(std::move(projections), std::move(filter));
  return built;
}

// The projections of an Expand node; the output schema the planner declared must be the one the
// operator derives from them.
absl::StatusOr<BuiltNode> BuildExpand(const v1::PlanNode& node, const std::vector<DataType>& in) {
  std::vector<ExpandProjection> projections;
  for (const v1::Expand::Projection& p : node.expand().projections()) {
    projections.push_back({{p.columns().begin(), p.columns().end()}, p.expand_id()});
  }
  ASSIGN_OR_RETURN(auto op, ExpandOperator::Create(in, std::move(projections),
                                                   node.expand().expand_id_column()));
  ASSIGN_OR_RETURN(Schema schema, SchemaFromProto(node.output_schema()));
  const std::vector<DataType> declared = schema.Types();
  bool same = declared.size() == op->output_types().size();
  for (size_t i = 0; same && i < declared.size(); ++i) same = declared[i] == op->output_types()[i];
  if (!same) {
    return absl::InvalidArgumentError(
        "Expand: output schema differs from the columns of its projections");
  }
  BuiltNode built;
  built.op = std::move(op);
  return built;
}

absl::Status ReadKeysAndCalls(const google::protobuf::RepeatedField<int32_t>& keys,
                              const google::protobuf::RepeatedPtrField<v1::AggregateCall>& calls,
                              const std::vector<DataType>& in, bool merging,
                              std::vector<int>* group_keys,
                              std::vector<AggregateCall>* aggregates) {
  for (int k : keys) {
    if (k < 0 || k >= static_cast<int>(in.size())) {
      return absl::InvalidArgumentError(absl::StrCat("group key column ", k, " out of range"));
    }
    group_keys->push_back(k);
  }
  for (const auto& c : calls) {
    if (c.has_user_function()) {
      ASSIGN_OR_RETURN(AggregateCall user, ReadUserAggregateCall(c, in, merging));
      aggregates->push_back(std::move(user));
      continue;
    }
    AggregateCall call;
    ASSIGN_OR_RETURN(call.kind, ParseAggKind(c.function(), c.count_star()));
    call.arg = c.arg();
    if ((merging || call.kind != AggKind::kCountStar) &&
        (call.arg < 0 || call.arg >= static_cast<int>(in.size()))) {
      return absl::InvalidArgumentError(
          absl::StrCat("aggregate argument ", call.arg, " out of range"));
    }
    if (call.kind != AggKind::kCountStar) {
      if (merging) {
        ASSIGN_OR_RETURN(call.arg_type, TypeFromProto(c.arg_type()));
      } else {
        call.arg_type = in[call.arg];
      }
    }
    ASSIGN_OR_RETURN(call.result_type, TypeFromProto(c.result_type()));
    call.distinct = c.distinct();
    if (call.kind == AggKind::kListAgg) {
      call.separator = c.separator();
    } else if (!c.separator().empty()) {
      return absl::InvalidArgumentError(absl::StrCat("aggregate call ", c.function(),
                                                     " has a separator; only LISTAGG takes one"));
    }
    aggregates->push_back(call);
  }
  return absl::OkStatus();
}

// Group keys and calls of a GroupAggregate message. `merging`: a global aggregate's calls point at
// partial columns, so their argument types come from the message, not from the input.
absl::Status AggregateKeysAndCalls(const v1::GroupAggregate& agg, const std::vector<DataType>& in,
                                   bool merging, std::vector<int>* keys,
                                   std::vector<AggregateCall>* calls) {
  return ReadKeysAndCalls(agg.group_keys(), agg.calls(), in, merging, keys, calls);
}

absl::StatusOr<BuiltNode> BuildLocalAggregate(const v1::PlanNode& node,
                                              const std::vector<DataType>& in) {
  const auto& agg = node.local_group_aggregate();
  LocalGroupAggregateSpec spec;
  spec.input_types = in;
  RETURN_IF_ERROR(AggregateKeysAndCalls(agg, in, false, &spec.group_keys, &spec.aggregates));
  spec.input_insert_only = agg.input_insert_only();
  spec.mini_batch_size = agg.mini_batch_size();
  spec.mini_batch_latency_ms = agg.mini_batch_latency_ms();
  ASSIGN_OR_RETURN(auto op, LocalGroupAggregateOperator::Create(std::move(spec)));
  // The planner's schema of the partials must be what the operator writes.
  ASSIGN_OR_RETURN(Schema schema, SchemaFromProto(node.output_schema()));
  const std::vector<DataType> declared = schema.Types();
  bool same = declared.size() == op->output_types().size();
  for (size_t i = 0; same && i < declared.size(); ++i) {
    same = declared[i].SameAs(op->output_types()[i]);
  }
  if (!same) {
    return absl::InvalidArgumentError(
        "LocalGroupAggregate: output schema differs from the "
        "partial accumulators of its calls");
  }
  BuiltNode built;
  built.op = std::move(op);
  return built;
}

absl::StatusOr<BuiltNode> BuildAggregate(const v1::PlanNode& node,
                                         const std::vector<DataType>& in) {
  const bool merging = node.op_case() == v1::PlanNode::kGlobalGroupAggregate;
  const auto& agg = merging ? node.global_group_aggregate() : node.group_aggregate();
  GroupAggregateSpec spec;
  spec.input_types = in;
  RETURN_IF_ERROR(AggregateKeysAndCalls(agg, in, merging, &spec.group_keys, &spec.aggregates));
  spec.merge_partials = merging;
  spec.partial_row_count_column =
      agg.has_partial_row_count_column() ? agg.partial_row_count_column() : -1;
  spec.generate_update_before = agg.generate_update_before();
  if (agg.state_ttl_ms() < 0)
    return absl::InvalidArgumentError("GroupAggregate: negative state TTL");
  spec.state_ttl_ms = agg.state_ttl_ms();
  spec.input_insert_only = agg.input_insert_only();
  if (agg.mini_batch_size() < 0 || agg.mini_batch_latency_ms() < 0) {
    return absl::InvalidArgumentError("GroupAggregate: negative mini-batch size or latency");
  }
  spec.mini_batch_size = agg.mini_batch_size();
  spec.mini_batch_latency_ms = agg.mini_batch_latency_ms();
  ASSIGN_OR_RETURN(auto op, GroupAggregateOperator::Create(std::move(spec)));
  BuiltNode built;
  built.op = std::move(op);
  return built;
}

// The window of a WindowAggregate or WindowTableFunction node; its sizes are checked by
// WindowShape::Validate where the operator is made.
absl::StatusOr<WindowShape> ShapeFromProto(const v1::Window& w) {
  WindowShape shape;
  switch (w.kind()) {
    case v1::Window::TUMBLE:
      shape.kind = WindowShape::Kind::kTumble;
      break;
    case v1::Window::HOP:
      shape.kind = WindowShape::Kind::kHop;
      break;
    case v1::Window::CUMULATE:
      shape.kind = WindowShape::Kind::kCumulate;
      break;
    default:
      return absl::InvalidArgumentError("unknown window kind");
  }
  shape.size = w.size_ms();
  shape.slide = w.slide_ms();
  shape.step = w.step_ms();
  shape.offset = w.offset_ms();
  return shape;
}

// The clock of a window node's local_time_zone (empty: its time attribute's own values).
absl::StatusOr<WindowClock> ClockFromProto(const std::string& zone, const char* node) {
  absl::StatusOr<WindowClock> clock = WindowClock::ForZone(zone);
  if (!clock.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(node, ": local_time_zone: ", clock.status().message()));
  }
  return clock;
}

absl::StatusOr<BuiltNode> BuildWindowAggregate(const v1::PlanNode& node,
                                               const std::vector<DataType>& in) {
  const auto& agg = node.window_aggregate();
  WindowAggregateSpec spec;
  spec.input_types = in;
  RETURN_IF_ERROR(ReadKeysAndCalls(agg.group_keys(), agg.calls(), in, /*merging=*/false,
                                   &spec.group_keys, &spec.aggregates));
  ASSIGN_OR_RETURN(spec.window, ShapeFromProto(agg.window()));
  spec.time_column = agg.window().time_column();
  ASSIGN_OR_RETURN(spec.clock, ClockFromProto(agg.window().local_time_zone(), "WindowAggregate"));
  // A plan grouped by window_time declares one more output column than the keys, the calls,
  // window_start and window_end.
  spec.window_time =
      node.output_schema().fields_size() == agg.group_keys_size() + agg.calls_size() + 3;
  ASSIGN_OR_RETURN(auto op, WindowAggregateOperator::Create(std::move(spec)));
  if (static_cast<int>(op->output_types().size()) != node.output_schema().fields_size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("WindowAggregate: the plan declares ", node.output_schema().fields_size(),
                     " output columns, the operator emits ", op->output_types().size()));
  }
  BuiltNode built;
  built.op = std::move(op);
  return built;
}

absl::StatusOr<BuiltNode> BuildWindowTableFunction(const v1::PlanNode& node,
                                                   const std::vector<DataType>& in) {
  const v1::Window& w = node.window_table_function().window();
  ASSIGN_OR_RETURN(WindowShape shape, ShapeFromProto(w));
  ASSIGN_OR_RETURN(WindowClock clock, ClockFromProto(w.local_time_zone(), "WindowTableFunction"));
  ASSIGN_OR_RETURN(
      auto op, WindowTableFunctionOperator::Create(in, shape, w.time_column(), std::move(clock)));
  BuiltNode built;
  built.op = std::move(op);
  return built;
}

absl::StatusOr<BuiltNode> BuildWatermarkAssigner(const v1::PlanNode& node,
                                                 const std::vector<DataType>& in) {
  const auto& w = node.watermark_assigner();
  ASSIGN_OR_RETURN(ExprPtr e, ExprFromProto(w.watermark(), in));
  if (!e->type.IsTimestampLike()) {
    return absl::InvalidArgumentError("WatermarkAssigner: the watermark must be a TIMESTAMP");
  }
  BuiltNode built;
  built.op = std::make_unique<WatermarkAssignerOperator>(
      std::move(e), std::chrono::milliseconds(std::max<int64_t>(0, w.idle_timeout_ms())));
  return built;
}

// The join type of a Join, IntervalJoin or TemporalJoin message (`op` names it in messages).
absl::StatusOr<StreamingJoinType> JoinTypeFromProto(v1::Join::Type type, const char* op) {
  switch (type) {
    case v1::Join::INNER:
      return StreamingJoinType::kInner;
    case v1::Join::LEFT_OUTER:
      return StreamingJoinType::kLeftOuter;
    case v1::Join::RIGHT_OUTER:
      return StreamingJoinType::kRightOuter;
    case v1::Join::FULL_OUTER:
      return StreamingJoinType::kFullOuter;
    case v1::Join::SEMI:
      return StreamingJoinType::kSemi;
    case v1::Join::ANTI:
      return StreamingJoinType::kAnti;
    default:
      return absl::InvalidArgumentError(absl::StrCat(op, ": unspecified or unknown join type"));
  }
}

// A join's residual condition over left ++ right. The planner binds the ON condition over the
// join's row type, where an outer join's padded side is nullable; a condition bound over the
// inputs' own types is accepted as well. Nullability changes no value the condition computes.
absl::StatusOr<ExprPtr> BindJoinCondition(const v1::Expr& proto, StreamingJoinType type,
                                          const std::vector<DataType>& left,
                                          const std::vector<DataType>& right) {
  const bool pad_left =
      type == StreamingJoinType::kRightOuter || type == StreamingJoinType::kFullOuter;
  const bool pad_right =
      type == StreamingJoinType::kLeftOuter || type == StreamingJoinType::kFullOuter;
  std::vector<DataType> padded;
  std::vector<DataType> plain = left;
  plain.insert(plain.end(), right.begin(), right.end());
  for (const DataType& t : left) padded.push_back(pad_left ? t.WithNullable(true) : t);
  for (const DataType& t : right) padded.push_back(pad_right ? t.WithNullable(true) : t);
  absl::StatusOr<ExprPtr> condition = ExprFromProto(proto, padded);
  if (!condition.ok() && (pad_left || pad_right)) {
    absl::StatusOr<ExprPtr> over_inputs = ExprFromProto(proto, plain);
    if (over_inputs.ok()) condition = std::move(over_inputs);
  }
  return condition;
}

// `op` as the node's operator, once the planner's schema is what it emits (nullability aside);
// the error names the node kind `name` and what the operator is (`what`, e.g. "interval join").
template <typename JoinOperator>
absl::StatusOr<BuiltNode> JoinNode(const v1::PlanNode& node, std::unique_ptr<JoinOperator> op,
                                   const char* name, const char* what) {
  ASSIGN_OR_RETURN(Schema schema, SchemaFromProto(node.output_schema()));
  const std::vector<DataType> declared = schema.Types();
  const std::vector<DataType>& emitted = op->output_types();
  bool same = declared.size() == emitted.size();
  for (size_t i = 0; same && i < declared.size(); ++i) same = declared[i].SameAs(emitted[i]);
  if (!same) {
    return absl::InvalidArgumentError(absl::StrCat(name, ": output schema differs from the ",
                                                   StreamingJoinTypeName(op->spec().type), " ",
                                                   what, " of its inputs"));
  }
  BuiltNode built;
  built.op = std::move(op);
  return built;
}

absl::StatusOr<BuiltNode> BuildJoin(const v1::PlanNode& node,
                                    const std::vector<std::vector<DataType>>& input_types) {
  if (input_types.size() != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("a join expects two inputs (left, right), has ", input_types.size()));
  }
  const v1::Join& join = node.join();
  StreamingJoinSpec spec;
  ASSIGN_OR_RETURN(spec.type, JoinTypeFromProto(join.type(), "Join"));
  spec.left_types = input_types[0];
  spec.right_types = input_types[1];
  spec.left_keys.assign(join.left_keys().begin(), join.left_keys().end());
  spec.right_keys.assign(join.right_keys().begin(), join.right_keys().end());
  spec.null_safe.assign(join.null_safe().begin(), join.null_safe().end());
  spec.left_unique_key.assign(join.left_unique_key().begin(), join.left_unique_key().end());
  spec.right_unique_key.assign(join.right_unique_key().begin(), join.right_unique_key().end());
  if (join.has_condition()) {
    ASSIGN_OR_RETURN(spec.condition, BindJoinCondition(join.condition(), spec.type, spec.left_types,
                                                       spec.right_types));
  }
  if (join.state_ttl_ms() < 0) return absl::InvalidArgumentError("Join: negative state TTL");
  spec.state_ttl_ms = join.state_ttl_ms();
  spec.omit_update_before = join.omit_update_before();
  // Create checks key counts, columns, key types and the condition's type.
  ASSIGN_OR_RETURN(auto op, StreamingJoinOperator::Create(std::move(spec)));
  return JoinNode(node, std::move(op), "Join", "join");
}

absl::StatusOr<BuiltNode> BuildIntervalJoin(const v1::PlanNode& node,
                                            const std::vector<std::vector<DataType>>& input_types) {
  if (input_types.size() != 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "an interval join expects two inputs (left, right), has ", input_types.size()));
  }
  const v1::IntervalJoin& join = node.interval_join();
  IntervalJoinSpec spec;
  ASSIGN_OR_RETURN(spec.type, JoinTypeFromProto(join.type(), "IntervalJoin"));
  spec.left_types = input_types[0];
  spec.right_types = input_types[1];
  spec.left_keys.assign(join.left_keys().begin(), join.left_keys().end());
  spec.right_keys.assign(join.right_keys().begin(), join.right_keys().end());
  spec.left_time = join.left_time();
  spec.right_time = join.right_time();
  spec.lower_bound_ms = join.lower_bound_ms();
  spec.upper_bound_ms = join.upper_bound_ms();
  if (join.has_condition()) {
    ASSIGN_OR_RETURN(spec.condition, BindJoinCondition(join.condition(), spec.type, spec.left_types,
                                                       spec.right_types));
  }
  // Create refuses SEMI and ANTI and checks key counts, columns and types, the time columns
  // (TIMESTAMP(3)), the bounds (lower <= upper) and the condition's type.
  ASSIGN_OR_RETURN(auto op, IntervalJoinOperator::Create(std::move(spec)));
  return JoinNode(node, std::move(op), "IntervalJoin", "interval join");
}

absl::StatusOr<BuiltNode> BuildTemporalJoin(const v1::PlanNode& node,
                                            const std::vector<std::vector<DataType>>& input_types) {
  if (input_types.size() != 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a temporal join expects two inputs (left, versioned right), has ", input_types.size()));
  }
  const v1::TemporalJoin& join = node.temporal_join();
  TemporalJoinSpec spec;
  ASSIGN_OR_RETURN(spec.type, JoinTypeFromProto(join.type(), "TemporalJoin"));
  spec.left_types = input_types[0];
  spec.right_types = input_types[1];
  spec.left_keys.assign(join.left_keys().begin(), join.left_keys().end());
  spec.right_keys.assign(join.right_keys().begin(), join.right_keys().end());
  spec.left_time = join.left_time();
  spec.right_time = join.right_time();
  if (join.has_condition()) {
    ASSIGN_OR_RETURN(spec.condition, BindJoinCondition(join.condition(), spec.type, spec.left_types,
                                                       spec.right_types));
  }
  // Create refuses types other than INNER and LEFT OUTER and checks key counts (at least one),
  // columns and types, the time columns (both -1, or both TIMESTAMP(3)) and the condition's type.
  ASSIGN_OR_RETURN(auto op, TemporalJoinOperator::Create(std::move(spec)));
  return JoinNode(node, std::move(op), "TemporalJoin", "temporal join");
}

// "(INT, STRING NOT NULL)", for messages.
std::string TypeList(const std::vector<DataType>& types) {
  std::string s = "(";
  for (size_t i = 0; i < types.size(); ++i) {
    absl::StrAppend(&s, i > 0 ? ", " : "", types[i].ToString());
  }
  return s + ")";
}

// `op` as the node's operator, once the planner's schema is what it emits (nullability aside);
// the error names the node kind `name` and both row types.
template <typename KeyedOperator>
absl::StatusOr<BuiltNode> CheckedNode(const v1::PlanNode& node, std::unique_ptr<KeyedOperator> op,
                                      const char* name) {
  ASSIGN_OR_RETURN(Schema schema, SchemaFromProto(node.output_schema()));
  const std::vector<DataType> declared = schema.Types();
  const std::vector<DataType>& emitted = op->output_types();
  bool same = declared.size() == emitted.size();
  for (size_t i = 0; same && i < declared.size(); ++i) same = declared[i].SameAs(emitted[i]);
  if (!same) {
    return absl::InvalidArgumentError(absl::StrCat(name, ": output schema ", TypeList(declared),
                                                   " differs from the rows it emits ",
                                                   TypeList(emitted)));
  }
  BuiltNode built;
  built.op = std::move(op);
  return built;
}

// A Rank's or WindowRank's ORDER BY items.
std::vector<SortKeyField> SortKeyFieldsFromProto(
    const google::protobuf::RepeatedPtrField<v1::SortField>& order_by) {
  std::vector<SortKeyField> fields;
  for (const v1::SortField& f : order_by) {
    fields.push_back(SortKeyField{
        .column = f.column(), .descending = f.descending(), .nulls_first = f.nulls_first()});
  }
  return fields;
}

absl::StatusOr<BuiltNode> BuildHashAggregate(const v1::PlanNode& node,
                                             const std::vector<DataType>& in) {
  const v1::GroupAggregate& agg = node.hash_aggregate();
  if (!agg.input_insert_only()) {
    return absl::InvalidArgumentError("HashAggregate: the input must be insert-only");
  }
  HashAggregateSpec spec;
  spec.input_types = in;
  RETURN_IF_ERROR(AggregateKeysAndCalls(agg, in, false, &spec.group_keys, &spec.aggregates));
  ASSIGN_OR_RETURN(auto op, HashAggregateOperator::Create(std::move(spec)));
  return CheckedNode(node, std::move(op), "HashAggregate");
}

absl::StatusOr<BuiltNode> BuildBatchSort(const v1::PlanNode& node,
                                         const std::vector<DataType>& in) {
  BatchSortSpec spec;
  spec.input_types = in;
  spec.order_by = SortKeyFieldsFromProto(node.sort().order_by());
  spec.offset = node.sort().offset();
  spec.fetch = node.sort().fetch();
  ASSIGN_OR_RETURN(auto op, BatchSortOperator::Create(std::move(spec)));
  return CheckedNode(node, std::move(op), "Sort");
}

absl::StatusOr<BuiltNode> BuildRank(const v1::PlanNode& node, const std::vector<DataType>& in) {
  const v1::Rank& rank = node.rank();
  RankSpec spec;
  spec.input_types = in;
  spec.partition_keys.assign(rank.partition_keys().begin(), rank.partition_keys().end());
  spec.order_by = SortKeyFieldsFromProto(rank.order_by());
  spec.rank_start = rank.rank_start();
  spec.rank_end = rank.rank_end();
  spec.output_rank_number = rank.output_rank_number();
  switch (rank.function()) {
    case v1::Rank::ROW_NUMBER:
      spec.function = RankFunction::kRowNumber;
      break;
    case v1::Rank::RANK:
      spec.function = RankFunction::kRank;
      break;
    case v1::Rank::DENSE_RANK:
      spec.function = RankFunction::kDenseRank;
      break;
    default:
      return absl::InvalidArgumentError("Rank: unknown rank function");
  }
  switch (rank.strategy()) {
    case v1::Rank::APPEND_FAST:
      spec.strategy = RankStrategy::kAppendFast;
      break;
    case v1::Rank::RETRACT:
      spec.strategy = RankStrategy::kRetract;
      break;
    default:
      return absl::InvalidArgumentError("Rank: unspecified or unknown strategy");
  }
  spec.generate_update_before = rank.generate_update_before();
  spec.state_ttl_ms = rank.state_ttl_ms();
  // Create checks the partition and ORDER BY columns, the rank range (1 <= rank_start <= rank_end)
  // and the TTL.
  ASSIGN_OR_RETURN(auto op, RankOperator::Create(std::move(spec)));
  return CheckedNode(node, std::move(op), "Rank");
}

absl::StatusOr<BuiltNode> BuildWindowRank(const v1::PlanNode& node,
                                          const std::vector<DataType>& in) {
  const v1::WindowRank& rank = node.window_rank();
  WindowRankSpec spec;
  spec.input_types = in;
  spec.partition_keys.assign(rank.partition_keys().begin(), rank.partition_keys().end());
  spec.order_by = SortKeyFieldsFromProto(rank.order_by());
  spec.rank_start = rank.rank_start();
  spec.rank_end = rank.rank_end();
  spec.output_rank_number = rank.output_rank_number();
  spec.window_start_column = rank.window_start_column();
  spec.window_end_column = rank.window_end_column();
  spec.later_ties_first = rank.later_ties_first();
  ASSIGN_OR_RETURN(spec.clock, ClockFromProto(rank.local_time_zone(), "WindowRank"));
  // Create checks the partition, ORDER BY and window columns (TIMESTAMP(3) input columns) and the
  // rank range (1 <= rank_start <= rank_end).
  ASSIGN_OR_RETURN(auto op, WindowRankOperator::Create(std::move(spec)));
  return CheckedNode(node, std::move(op), "WindowRank");
}

absl::StatusOr<BuiltNode> BuildSessionWindowAggregate(const v1::PlanNode& node,
                                                      const std::vector<DataType>& in) {
  const v1::SessionWindowAggregate& session = node.session_window_aggregate();
  SessionWindowAggregateSpec spec;
  spec.input_types = in;
  absl::Status keys_and_calls =
      ReadKeysAndCalls(session.group_keys(), session.calls(), in, /*merging=*/false,
                       &spec.group_keys, &spec.aggregates);
  if (!keys_and_calls.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("SessionWindowAggregate: ", keys_and_calls.message()));
  }
  spec.time_column = session.time_column();
  spec.gap_ms = session.gap_ms();
  ASSIGN_OR_RETURN(spec.clock, ClockFromProto(session.local_time_zone(), "SessionWindowAggregate"));
  // A plan grouped by window_time declares one more output column (CheckedNode checks the rest).
  spec.window_time =
      node.output_schema().fields_size() == session.group_keys_size() + session.calls_size() + 3;
  // Create checks the gap (> 0), the time column (a TIMESTAMP input column) and the calls (kinds,
  // argument and result types).
  ASSIGN_OR_RETURN(auto op, SessionWindowAggregateOperator::Create(std::move(spec)));
  return CheckedNode(node, std::move(op), "SessionWindowAggregate");
}

absl::StatusOr<BuiltNode> BuildDeduplicate(const v1::PlanNode& node,
                                           const std::vector<DataType>& in) {
  const v1::Deduplicate& dedup = node.deduplicate();
  DeduplicateSpec spec;
  spec.input_types = in;
  spec.keys.assign(dedup.keys().begin(), dedup.keys().end());
  spec.time_column = dedup.time_column();
  spec.keep_last_row = dedup.keep_last_row();
  spec.generate_update_before = dedup.generate_update_before();
  spec.state_ttl_ms = dedup.state_ttl_ms();
  // Create checks the key columns, the time column (a TIMESTAMP(3) input column) and the TTL.
  ASSIGN_OR_RETURN(auto op, DeduplicateOperator::Create(std::move(spec)));
  return CheckedNode(node, std::move(op), "Deduplicate");
}

absl::StatusOr<BuiltNode> BuildTemporalSort(const v1::PlanNode& node,
                                            const std::vector<DataType>& in) {
  TemporalSortSpec spec;
  spec.input_types = in;
  spec.time_column = node.temporal_sort().time_column();
  spec.secondary = SortKeyFieldsFromProto(node.temporal_sort().secondary());
  // Create checks the time column (a TIMESTAMP input column) and the secondary keys.
  ASSIGN_OR_RETURN(auto op, TemporalSortOperator::Create(std::move(spec)));
  return CheckedNode(node, std::move(op), "TemporalSort");
}

absl::StatusOr<BuiltNode> BuildOverAggregate(const v1::PlanNode& node,
                                             const std::vector<DataType>& in) {
  const v1::OverAggregate& over = node.over_aggregate();
  OverAggregateSpec spec;
  spec.input_types = in;
  spec.partition_keys.assign(over.partition_keys().begin(), over.partition_keys().end());
  spec.time_column = over.time_column();
  switch (over.frame()) {
    case v1::OverAggregate::ROWS:
      spec.frame = OverFrame::kRows;
      break;
    case v1::OverAggregate::RANGE:
      spec.frame = OverFrame::kRange;
      break;
    default:
      return absl::InvalidArgumentError("OverAggregate: unspecified or unknown frame");
  }
  spec.preceding = over.preceding();
  spec.state_ttl_ms = over.state_ttl_ms();
  // The calls as a GroupAggregate's, without group keys (the partition keys are checked by Create).
  const google::protobuf::RepeatedField<int32_t> no_keys;
  std::vector<int> unused_keys;
  absl::Status calls =
      ReadKeysAndCalls(no_keys, over.calls(), in, /*merging=*/false, &unused_keys, &spec.calls);
  if (!calls.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("OverAggregate: ", calls.message()));
  }
  // Create checks the partition and time columns (a TIMESTAMP(3) input column), the preceding
  // bound, the TTL and the calls (kinds, argument and result types).
  ASSIGN_OR_RETURN(auto op, OverAggregateOperator::Create(std::move(spec)));
  return CheckedNode(node, std::move(op), "OverAggregate");
}

ConnectorContext ConnectorContextOf(const NodeBuildContext& ctx) {
  ConnectorContext c;
  c.filesystem_allowed_dirs = ctx.filesystem_allowed_dirs;
  c.results = ctx.results;
  c.coordinator = ctx.coordinator;
  return c;
}

absl::StatusOr<BuiltNode> BuildSink(const v1::PlanNode& node, const NodeBuildContext& ctx) {
  ASSIGN_OR_RETURN(Schema schema, SchemaFromProto(node.output_schema()));
  BuiltNode built;
  ASSIGN_OR_RETURN(built.op, CreateTableSink(node.sink(), schema, ConnectorContextOf(ctx)));
  return built;
}

absl::StatusOr<BuiltNode> BuildPartitionCommitter(const v1::PlanNode& node,
                                                  const NodeBuildContext& ctx) {
  if (ctx.filesystem_allowed_dirs == nullptr) {
    return absl::FailedPreconditionError("a partition committer but no filesystem directories");
  }
  BuiltNode built;
  ASSIGN_OR_RETURN(built.op, FilesystemPartitionCommitter::Create(node.partition_committer(),
                                                                  *ctx.filesystem_allowed_dirs));
  return built;
}

absl::StatusOr<BuiltNode> BuildExchangeSink(const v1::PlanNode& node,
                                            const std::vector<DataType>& in,
                                            const NodeBuildContext& ctx) {
  const std::string producer =
      absl::StrCat("job ", ctx.job_id, " task ", ctx.task_index, " subtask ", ctx.subtask_index,
                   ctx.worker.empty() ? "" : " on ", ctx.worker);
  ASSIGN_OR_RETURN(ExchangeSinkSpec spec,
                   ExchangeSinkSpecFromProto(node.exchange_sink(), in, producer));
  for (auto& t : spec.targets) {
    t.channel.attempt = ctx.attempt;
    if (t.local && ctx.exchange == nullptr) {
      return absl::FailedPreconditionError("local exchange target but no exchange registry");
    }
  }
  BuiltNode built;
  built.op = std::make_unique<ExchangeSinkOperator>(std::move(spec), ctx.exchange);
  return built;
}

absl::StatusOr<BuiltNode> BuildExchangeSource(const v1::PlanNode& node,
                                              const NodeBuildContext& ctx) {
  if (node.inputs_size() != 0)
    return absl::InvalidArgumentError("an exchange source has no inputs");
  ASSIGN_OR_RETURN(Schema schema, SchemaFromProto(node.output_schema()));
  const auto& src = node.exchange_source();
  ASSIGN_OR_RETURN(
      auto source,
      ExchangeSource::Create(
          ctx.exchange, GateKey{ctx.job_id, ctx.task_index, ctx.subtask_index, src.input_index()},
          src.num_channels(), src.credits_per_channel(), schema.Types(), ctx.attempt,
          ctx.alignment));
  BuiltNode built;
  built.source = std::move(source);
  return built;
}

// A stateful node's store and keys are named by its state id, which the coordinator must set.
absl::Status RequireStateId(const v1::PlanNode& node) {
  if (node.state_id() != 0) return absl::OkStatus();
  return absl::InvalidArgumentError("keeps keyed state but the plan gives it no state id");
}

absl::StatusOr<BuiltNode> BuildOne(const v1::PlanNode& node,
                                   const std::vector<std::vector<DataType>>& input_types,
                                   const NodeBuildContext& ctx) {
  auto single_input = [&]() -> absl::StatusOr<std::vector<DataType>> {
    if (input_types.size() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("expects one input, has ", input_types.size()));
    }
    return input_types[0];
  };
  switch (node.op_case()) {
    case v1::PlanNode::kValues: {
      std::vector<ChangelogBatch> batches;
      for (const auto& b : node.values().batches()) {
        ASSIGN_OR_RETURN(ChangelogBatch batch, DecodeBatch(b));
        batches.push_back(std::move(batch));
      }
      BuiltNode built;
      built.source = std::make_unique<ValuesSource>(std::move(batches));
      return built;
    }
    case v1::PlanNode::kTableSource: {
      BuiltNode built;
      ASSIGN_OR_RETURN(built.source,
                       CreateTableSource(node.table_source(), ConnectorContextOf(ctx)));
      return built;
    }
    case v1::PlanNode::kCalc: {
      ASSIGN_OR_RETURN(auto in, single_input());
      return BuildCalc(node, in);
    }
    case v1::PlanNode::kExpand: {
      ASSIGN_OR_RETURN(auto in, single_input());
      return BuildExpand(node, in);
    }
    case v1::PlanNode::kCorrelate: {
      ASSIGN_OR_RETURN(auto in, single_input());
      return BuildCorrelate(node, in);
    }
    case v1::PlanNode::kGroupAggregate:
    case v1::PlanNode::kGlobalGroupAggregate: {
      RETURN_IF_ERROR(RequireStateId(node));
      ASSIGN_OR_RETURN(auto in, single_input());
      return BuildAggregate(node, in);
    }
    case v1::PlanNode::kWindowAggregate: {
      RETURN_IF_ERROR(RequireStateId(node));
      ASSIGN_OR_RETURN(auto in, single_input());
      return BuildWindowAggregate(node, in);
    }
    case v1::PlanNode::kWindowTableFunction: {
      ASSIGN_OR_RETURN(auto in, single_input());
      return BuildWindowTableFunction(node, in);
    }
    case v1::PlanNode::kWatermarkAssigner: {
      ASSIGN_OR_RETURN(auto in, single_input());
      return BuildWatermarkAssigner(node, in);
    }
    case v1::PlanNode::kLocalGroupAggregate: {
      ASSIGN_OR_RETURN(auto in, single_input());
      return BuildLocalAggregate(node, in);
    }
    case v1::PlanNode::kJoin:
      RETURN_IF_ERROR(RequireStateId(node));
      return BuildJoin(node, input_types);
    case v1::PlanNode::kUnionAll: {
      BuiltNode built;
      built.op = std::make_unique<UnionOperator>();
      return built;
    }
    case v1::PlanNode::kMiniBatchAssigner: {
      RETURN_IF_ERROR(single_input().status());
      BuiltNode built;
      built.op = std::make_unique<MiniBatchAssignerOperator>();
      return built;
    }
    case v1::PlanNode::kSink:
      return BuildSink(node, ctx);
    case v1::PlanNode::kPartitionCommitter:
      return BuildPartitionCommitter(node, ctx);
    case v1::PlanNode::kExchangeSink: {
      ASSIGN_OR_RETURN(auto in, single_input());
      return BuildExchangeSink(node, in, ctx);
    }
    case v1::PlanNode::kExchangeSource:
      return BuildExchangeSource(node, ctx);
    case v1::PlanNode::kIntervalJoin:
      RETURN_IF_ERROR(RequireStateId(node));
      return BuildIntervalJoin(node, input_types);
    case v1::PlanNode::kTemporalJoin:
      RETURN_IF_ERROR(RequireStateId(node));
      return BuildTemporalJoin(node, input_types);
    case v1::PlanNode::kRank: {
      RETURN_IF_ERROR(RequireStateId(node));
      ASSIGN_OR_RETURN(auto in, single_input());
      return BuildRank(node, in);
    }
    case v1::PlanNode::kDeduplicate: {
      RETURN_IF_ERROR(RequireStateId(node));
      ASSIGN_OR_RETURN(auto in, single_input());
      return BuildDeduplicate(node, in);
    }
    case v1::PlanNode::kOverAggregate: {
      RETURN_IF_ERROR(RequireStateId(node));
      ASSIGN_OR_RETURN(auto in, single_input());
      return BuildOverAggregate(node, in);
    }
    case v1::PlanNode::kWindowRank: {
      RETURN_IF_ERROR(RequireStateId(node));
      ASSIGN_OR_RETURN(auto in, single_input());
      return BuildWindowRank(node, in);
    }
    case v1::PlanNode::kSessionWindowAggregate: {
      RETURN_IF_ERROR(RequireStateId(node));
      ASSIGN_OR_RETURN(auto in, single_input());
      return BuildSessionWindowAggregate(node, in);
    }
    case v1::PlanNode::kTemporalSort: {
      RETURN_IF_ERROR(RequireStateId(node));
      ASSIGN_OR_RETURN(auto in, single_input());
      return BuildTemporalSort(node, in);
    }
    case v1::PlanNode::kHashAggregate: {
      ASSIGN_OR_RETURN(auto in, single_input());
      return BuildHashAggregate(node, in);
    }
    case v1::PlanNode::kSort: {
      ASSIGN_OR_RETURN(auto in, single_input());
      return BuildBatchSort(node, in);
    }
    case v1::PlanNode::kChangelogMaterialize: {
      ASSIGN_OR_RETURN(auto in, single_input());
      ASSIGN_OR_RETURN(auto op, ChangelogMaterializeOperator::Create(in));
      return CheckedNode(node, std::move(op), "ChangelogMaterialize");
    }
    case v1::PlanNode::OP_NOT_SET:
      break;
  }
  return absl::InvalidArgumentError("node has no operator");
}

// A node with processing_time runs its operator in processing time (ProcessingTimeOperator).
absl::Status WrapInProcessingTime(const v1::PlanNode& node,
                                  const std::vector<std::vector<DataType>>& input_types,
                                  BuiltNode* built) {
  switch (node.op_case()) {
    case v1::PlanNode::kWindowAggregate:
    case v1::PlanNode::kSessionWindowAggregate:
    case v1::PlanNode::kOverAggregate:
    case v1::PlanNode::kIntervalJoin:
    case v1::PlanNode::kDeduplicate:
    case v1::PlanNode::kWindowRank:
    case v1::PlanNode::kTemporalSort:
      break;
    case v1::PlanNode::kValues:
    case v1::PlanNode::kTableSource:
    case v1::PlanNode::kCalc:
    case v1::PlanNode::kExpand:
    case v1::PlanNode::kCorrelate:
    case v1::PlanNode::kGroupAggregate:
    case v1::PlanNode::kUnionAll:
    case v1::PlanNode::kSink:
    case v1::PlanNode::kPartitionCommitter:
    case v1::PlanNode::kExchangeSink:
    case v1::PlanNode::kExchangeSource:
    case v1::PlanNode::kWatermarkAssigner:
    case v1::PlanNode::kWindowTableFunction:
    case v1::PlanNode::kMiniBatchAssigner:
    case v1::PlanNode::kLocalGroupAggregate:
    case v1::PlanNode::kGlobalGroupAggregate:
    case v1::PlanNode::kJoin:
    case v1::PlanNode::kTemporalJoin:
    case v1::PlanNode::kRank:
    case v1::PlanNode::kHashAggregate:
    case v1::PlanNode::kSort:
    case v1::PlanNode::kChangelogMaterialize:
    case v1::PlanNode::OP_NOT_SET:
      return absl::InvalidArgumentError("this node cannot run in processing time");
  }
  const auto& columns = node.processing_time().time_columns();
  if (columns.size() != static_cast<int>(input_types.size())) {
    return absl::InvalidArgumentError(absl::StrCat("processing time names ", columns.size(),
                                                   " time columns for ", input_types.size(),
                                                   " inputs"));
  }
  std::vector<int> time_columns;
  for (int i = 0; i < columns.size(); ++i) {
    const int c = columns[i];
    if (c != -1 && (c < 0 || c >= static_cast<int>(input_types[i].size()) ||
                    !input_types[i][c].IsTimestampLike())) {
      return absl::InvalidArgumentError(absl::StrCat("processing time column ", c, " of input ", i,
                                                     " is not a TIMESTAMP column"));
    }
    time_columns.push_back(c);
  }
  built->op =
      std::make_unique<ProcessingTimeOperator>(std::move(built->op), std::move(time_columns));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<BuiltNode> BuildNode(const v1::PlanNode& node,
                                    const std::vector<std::vector<DataType>>& input_types,
                                    const NodeBuildContext& ctx) {
  auto built = BuildOne(node, input_types, ctx);
  if (!built.ok()) return NodeError(node, built.status());
  if (node.has_processing_time()) {
    absl::Status s = WrapInProcessingTime(node, input_types, &*built);
    if (!s.ok()) return NodeError(node, s);
  }
  return built;
}

}  // namespace eddy
