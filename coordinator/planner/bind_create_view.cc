// CREATE VIEW: the query is bound once to validate it and derive the view's schema; the catalog
// keeps the query text, which every query using the view re-binds (views are inlined). DESCRIBE
// reads a view's time attributes the same way.
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/zoned_calls.h"
#include "common/sql/parser.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/config_values.h"
#include "coordinator/planner/planner.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy {

absl::StatusOr<CatalogView> BindCreateView(const sql::CreateView& ddl,
                                           const SessionCatalog& catalog, const ConfigMap& config) {
  // Zone-dependent calls are fixed to the session zone now, as Flink fixes it at planning.
  ScopedPlanningTimeZone planning_zone(planner::ConfigTimeZone(config));
  auto path = catalog.Resolve(ddl.name);
  if (!path.ok()) return planner::AsValidationError(ddl.name.pos, path.status());
  if (ddl.query == nullptr) return planner::ValidationError("CREATE VIEW has no query");
  planner::Binder binder(catalog, config);
  ASSIGN_OR_RETURN(planner::BoundRelation bound, binder.BindQuery(*ddl.query));
  CatalogView view;
  view.path = *path;
  view.query_text = ddl.query_text;
  view.column_aliases = ddl.column_aliases;
  view.schema = bound.node->schema;
  if (!ddl.column_aliases.empty()) {
    if (ddl.column_aliases.size() != view.schema.size()) {
      return planner::ValidationErrorAt(
          ddl.name.pos,
          absl::StrCat("view '", view.path.ToString(), "' lists ", ddl.column_aliases.size(),
                       " column names but its query has ", view.schema.size(), " columns"));
    }
    for (size_t i = 0; i < ddl.column_aliases.size(); ++i) {
      view.schema.fields[i].name = ddl.column_aliases[i];
    }
  }
  return view;
}

absl::StatusOr<std::vector<std::string>> ViewTimeAttributeMarkers(const CatalogView& view,
                                                                  const SessionCatalog& catalog,
                                                                  const ConfigMap& config) {
  ScopedPlanningTimeZone planning_zone(planner::ConfigTimeZone(config));
  ASSIGN_OR_RETURN(auto stmt, sql::ParseStatement(view.query_text));
  if (stmt->kind != sql::StatementKind::kQuery || stmt->query == nullptr) {
    return planner::ValidationError(
        absl::StrCat("view '", view.path.ToString(), "' has an invalid query: not a query"));
  }
  planner::Binder binder(catalog, config);
  ASSIGN_OR_RETURN(planner::BoundRelation bound, binder.BindQuery(*stmt->query));
  std::vector<std::string> markers;
  for (size_t c = 0; c < bound.node->schema.size(); ++c) {
    switch (planner::TimeAttributeOf(*bound.node, static_cast<int>(c))) {
      case planner::TimeAttribute::kRowtime:
        markers.push_back("*ROWTIME*");
        break;
      case planner::TimeAttribute::kProctime:
        markers.push_back("*PROCTIME*");
        break;
      case planner::TimeAttribute::kNone:
        markers.push_back("");
        break;
    }
  }
  return markers;
}

}  // namespace eddy
