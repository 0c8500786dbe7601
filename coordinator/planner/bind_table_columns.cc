// A catalog table as a FROM item: the scan of its physical columns, a projection computing its
// computed columns (`name AS expr`, over the physical ones) and, for a table with WATERMARK FOR,
// a WatermarkAssigner over the result. The same binding types computed columns and the watermark
// expression when the table is created.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/sql/parser.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {
namespace {

absl::StatusOr<ExprPtr> BindOver(const Schema& schema, const sql::Expr& e, std::string clause) {
  std::vector<ScopeColumn> columns = UnqualifiedColumns(schema);
  ExprScope scope;
  scope.columns = &columns;
  scope.schema = &schema;
  scope.clause = std::move(clause);
  if (ContainsAggregate(e)) {
    return ValidationErrorAt(e.pos,
                             absl::StrCat("aggregate functions are not allowed in ", scope.clause));
  }
  return BindExpr(e, scope);
}

absl::StatusOr<ExprPtr> BindStored(const Schema& schema, const std::string& text,
                                   const std::string& what, const CatalogTable& table) {
  auto parsed = sql::ParseExpression(text);
  if (!parsed.ok()) {
    return ValidationError(absl::StrCat("table '", table.path.ToString(), "' has an invalid ", what,
                                        " '", text, "': ", parsed.status().message()));
  }
  return BindOver(schema, **parsed, what);
}

}  // namespace

absl::StatusOr<ExprPtr> BindComputedColumn(const CatalogTable& table, const sql::Expr& e) {
  ASSIGN_OR_RETURN(ExprPtr bound, BindOver(table.PhysicalSchema(), e, "a computed column"));
  if (bound->type.id == TypeId::kNull) {
    return ValidationErrorAt(e.pos,
                             "cannot infer the type of a computed column that is NULL; "
                             "use CAST(NULL AS type)");
  }
  return bound;
}

absl::StatusOr<ExprPtr> BindWatermarkExpr(const CatalogTable& table, const sql::Expr& e) {
  ASSIGN_OR_RETURN(ExprPtr bound, BindOver(table.schema, e, "a WATERMARK expression"));
  if (!bound->type.IsTimestampLike() || bound->type.precision > 3) {
    return ValidationErrorAt(e.pos, absl::StrCat("the WATERMARK expression must be of type "
                                                 "TIMESTAMP(3) or TIMESTAMP_LTZ(3), but is ",
                                                 bound->type.WithNullable(true).ToString()));
  }
  return bound;
}

absl::StatusOr<LogicalNodePtr> BindTableColumns(std::shared_ptr<const CatalogTable> table) {
  LogicalNodePtr node = MakeTableScan(table);
  if (table->HasComputedColumns()) {
    const Schema physical = table->PhysicalSchema();
    std::vector<ExprPtr> exprs;
    std::vector<std::string> names;
    int next_physical = 0;
    for (size_t i = 0; i < table->schema.size(); ++i) {
      const Field& f = table->schema.fields[i];
      names.push_back(f.name);
      if (!table->IsComputed(i)) {
        exprs.push_back(MakeColumnRef(next_physical++, f.type));
        continue;
      }
      ASSIGN_OR_RETURN(ExprPtr e,
                       BindStored(physical, table->computed_exprs[i],
                                  absl::StrCat("computed column '", f.name, "'"), *table));
      exprs.push_back(std::move(e));
    }
    node = MakeProject(node, std::move(exprs), std::move(names));
  }
  if (!table->watermark_column.empty()) {
    std::optional<int> rowtime = table->schema.FindField(table->watermark_column);
    if (!rowtime) {
      return ValidationError(absl::StrCat("table '", table->path.ToString(),
                                          "': watermark column '", table->watermark_column,
                                          "' is not a column"));
    }
    ASSIGN_OR_RETURN(ExprPtr wm, BindStored(table->schema, table->watermark_expr,
                                            "WATERMARK expression", *table));
    node = MakeWatermarkAssigner(node, *rowtime, std::move(wm));
  }
  return node;
}

}  // namespace eddy::planner
