// Binding of FROM items: catalog tables (scans of source connectors), views (inlined: their query
// text is parsed and bound in a fresh scope), subqueries and VALUES with optional aliases.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/sql/parser.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/connector_options.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {
namespace {

// Views nest; a view cannot name itself, but a dropped-and-recreated chain could loop.
constexpr int kMaxViewDepth = 32;

// Applies `AS alias(c1, c2, ...)`: renames the relation's columns (a Project only when needed)
// and sets their qualifier.
absl::StatusOr<BoundRelation> Alias(BoundRelation r, const std::string& qualifier,
                                    const std::vector<std::string>& column_aliases,
                                    const sql::SourcePos& pos) {
  if (!column_aliases.empty()) {
    if (column_aliases.size() != r.node->schema.size()) {
      return ValidationErrorAt(
          pos, absl::StrCat("the alias '", qualifier, "' lists ", column_aliases.size(),
                            " columns but the query has ", r.node->schema.size()));
    }
    std::vector<ExprPtr> refs;
    for (size_t i = 0; i < column_aliases.size(); ++i) {
      refs.push_back(MakeColumnRef(static_cast<int>(i), r.node->schema.fields[i].type));
    }
    r.node = MakeProject(r.node, std::move(refs), UniquifyNames(column_aliases));
  }
  r.columns.clear();
  for (const auto& f : r.node->schema.fields) r.columns.push_back({qualifier, f.name});
  return r;
}

}  // namespace

absl::StatusOr<BoundRelation> Binder::BindTableRef(const sql::TableRef& ref) {
  switch (ref.kind) {
    case sql::TableRefKind::kTable:
      return BindNamedTable(ref);
    case sql::TableRefKind::kSubquery:
    case sql::TableRefKind::kValues: {
      if (ref.subquery == nullptr) return ValidationErrorAt(ref.pos, "missing subquery");
      ASSIGN_OR_RETURN(BoundRelation r, BindQuery(*ref.subquery));
      return Alias(std::move(r), ref.alias.value_or(""), ref.column_aliases, ref.pos);
    }
    case sql::TableRefKind::kFunction:
      if (ref.lateral) {
        return ValidationErrorAt(ref.pos,
                                 "LATERAL TABLE must be joined with a table on its left: "
                                 "FROM t, LATERAL TABLE(f(t.x))");
      }
      if (!ref.name.parts.empty() && absl::AsciiStrToUpper(ref.name.parts.back()) == "ML_PREDICT") {
        return BindModelPrediction(ref);
      }
      return BindWindowTableFunction(ref);
    case sql::TableRefKind::kJoin:
      return BindJoin(ref);
  }
  return ValidationErrorAt(ref.pos, "unsupported FROM item");
}

absl::StatusOr<BoundRelation> Binder::BindJoin(const sql::TableRef& ref) {
  if (ref.left == nullptr || ref.right == nullptr) {
    return ValidationErrorAt(ref.pos, "a join needs two inputs");
  }
  JoinType type = JoinType::kInner;
  if (ref.join_type == "LEFT") {
    type = JoinType::kLeft;
  } else if (ref.join_type == "RIGHT") {
    type = JoinType::kRight;
  } else if (ref.join_type == "FULL") {
    type = JoinType::kFull;
  } else if (ref.join_type != "INNER" && ref.join_type != "CROSS") {
    return ValidationErrorAt(ref.pos, absl::StrCat("unsupported join type '", ref.join_type, "'"));
  }
  const bool lateral = ref.right->kind == sql::TableRefKind::kFunction && ref.right->lateral;
  if (ref.join_type != "CROSS" && ref.join_condition == nullptr) {
    return ValidationErrorAt(ref.pos, absl::StrCat(ref.join_type, " JOIN needs an ON condition"));
  }
  ASSIGN_OR_RETURN(BoundRelation left, BindTableRef(*ref.left));
  if (lateral) return BindLateralTable(ref, std::move(left), type);
  const bool temporal = ref.right->kind == sql::TableRefKind::kTable && ref.right->system_time;
  ASSIGN_OR_RETURN(BoundRelation right, temporal ? BindNamedTable(*ref.right, /*versioned=*/true)
                                                 : BindTableRef(*ref.right));
  std::vector<std::string> names = left.node->schema.Names();
  for (const std::string& name : right.node->schema.Names()) names.push_back(name);
  BoundRelation r;
  r.node = MakeJoin(left.node, right.node, type, nullptr, UniquifyNames(std::move(names)));
  if (temporal) RETURN_IF_ERROR(BindTemporal(*ref.right, left, right, r.node.get()));
  r.columns = std::move(left.columns);
  r.columns.insert(r.columns.end(), right.columns.begin(), right.columns.end());
  if (ref.join_condition != nullptr) {
    ExprScope scope;
    scope.columns = &r.columns;
    scope.schema = &r.node->schema;
    scope.clause = "ON clause";
    ASSIGN_OR_RETURN(ExprPtr condition, BindExpr(*ref.join_condition, scope));
    if (condition->type.id != TypeId::kBoolean) {
      return ValidationErrorAt(ref.join_condition->pos,
                               absl::StrCat("the ON clause must be a BOOLEAN expression, got ",
                                            condition->type.WithNullable(true).ToString()));
    }
    r.node->condition = std::move(condition);
  }
  return r;
}

absl::Status Binder::BindTemporal(const sql::TableRef& versioned, const BoundRelation& left,
                                  const BoundRelation& right, LogicalNode* join) {
  if (join->join_type != JoinType::kInner && join->join_type != JoinType::kLeft) {
    return ValidationErrorAt(versioned.pos,
                             "a temporal join (FOR SYSTEM_TIME AS OF) must be an INNER or LEFT "
                             "join");
  }
  ExprScope left_scope;
  left_scope.columns = &left.columns;
  left_scope.schema = &left.node->schema;
  left_scope.clause = "FOR SYSTEM_TIME AS OF";
  ASSIGN_OR_RETURN(ExprPtr period, BindExpr(*versioned.system_time, left_scope));
  const TimeAttribute period_kind = period->kind == ExprKind::kColumn
                                        ? TimeAttributeOf(*left.node, period->column)
                                        : TimeAttribute::kNone;
  if (period_kind == TimeAttribute::kNone) {
    return ValidationErrorAt(
        versioned.system_time->pos,
        "FOR SYSTEM_TIME AS OF must name a time attribute of the left table: "
        "an event-time attribute (a WATERMARK FOR column) or a processing-time "
        "attribute (a PROCTIME() column)");
  }
  const std::string name = versioned.name.ToString();
  // Processing time joins the versioned table's latest row: no time attribute needed there.
  int right_time = -1;
  if (period_kind == TimeAttribute::kRowtime) {
    for (size_t c = 0; c < right.node->schema.size() && right_time < 0; ++c) {
      if (IsRowtimeColumn(*right.node, static_cast<int>(c))) right_time = static_cast<int>(c);
    }
    if (right_time < 0) {
      return ValidationErrorAt(versioned.pos,
                               absl::StrCat("Event-Time Temporal Table Join requires both primary "
                                            "key and row time attribute in versioned table, but "
                                            "no row time attribute can be found ('",
                                            name, "')"));
    }
  }
  // The primary key is resolved after filter push-down (ResolveTemporalKeys): a versioned view's
  // key comes from its deduplication, whose rank the view's filter fixes.
  LogicalNode::Temporal t;
  t.left_time = period->column;
  t.right_time = right_time;
  t.proctime = period_kind == TimeAttribute::kProctime;
  t.versioned_name = name;
  join->temporal = std::move(t);
  return absl::OkStatus();
}

absl::StatusOr<BoundRelation> Binder::BindNamedTable(const sql::TableRef& ref, bool versioned) {
  if (ref.system_time && !versioned) {
    return ValidationErrorAt(ref.system_time->pos,
                             "FOR SYSTEM_TIME AS OF is supported on the right side of a JOIN (a "
                             "temporal join), not here");
  }
  auto path = catalog_.Resolve(ref.name);
  if (!path.ok()) return AsValidationError(ref.name.pos, path.status());
  const std::string qualifier = ref.alias.value_or(path->object);
  if (auto view = catalog_.FindView(*path)) {
    if (!ref.hints.empty()) {
      return ValidationErrorAt(ref.hints[0].pos,
                               absl::StrCat("View '", path->ToQuotedString(),
                                            "' cannot be enriched with new options. Hints can only "
                                            "be applied to tables."));
    }
    ASSIGN_OR_RETURN(BoundRelation r, BindView(*view, ref.pos));
    return Alias(std::move(r), qualifier, ref.column_aliases, ref.pos);
  }
  std::shared_ptr<const CatalogTable> table = catalog_.FindTable(*path);
  if (table == nullptr) {
    return ValidationErrorAt(ref.name.pos,
                             absl::StrCat("table '", path->ToString(), "' not found"));
  }
  ASSIGN_OR_RETURN(table, ApplyTableHints(std::move(table), ref.hints));
  const std::string connector = table->connector();
  const ConnectorFactory* factory = ConnectorOf(*table);
  if (factory == nullptr || !factory->can_read()) {
    return ValidationError(absl::StrCat("table '", path->ToString(), "' (connector '", connector,
                                        "') cannot be read; it is a sink"));
  }
  BoundRelation r;
  ASSIGN_OR_RETURN(r.node, BindTableColumns(table));
  for (const auto& f : table->schema.fields) r.columns.push_back({qualifier, f.name});
  return Alias(std::move(r), qualifier, ref.column_aliases, ref.pos);
}

absl::StatusOr<BoundRelation> Binder::BindView(const CatalogView& view, const sql::SourcePos& pos) {
  if (view_depth_ >= kMaxViewDepth) {
    return ValidationErrorAt(pos, absl::StrCat("view '", view.path.ToString(), "' nests more than ",
                                               kMaxViewDepth, " views"));
  }
  auto stmt = sql::ParseStatement(view.query_text);
  if (!stmt.ok() || (*stmt)->kind != sql::StatementKind::kQuery || (*stmt)->query == nullptr) {
    return ValidationErrorAt(
        pos, absl::StrCat("view '", view.path.ToString(), "' has an invalid query: ",
                          stmt.ok() ? "not a query" : stmt.status().message()));
  }
  Binder inner(catalog_, config_, view_depth_ + 1);
  auto bound = inner.BindQuery(*(*stmt)->query);
  if (!bound.ok()) {
    return absl::Status(bound.status().code(), absl::StrCat(bound.status().message(), " (in view '",
                                                            view.path.ToString(), "')"));
  }
  BoundRelation r = *std::move(bound);
  if (!view.column_aliases.empty()) {
    ASSIGN_OR_RETURN(r, Alias(std::move(r), "", view.column_aliases, pos));
  }
  return r;
}

}  // namespace eddy::planner
