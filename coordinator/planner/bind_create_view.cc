// CREATE VIEW: the query is bound once to validate it and derive the view's schema; the catalog
// keeps the query text, which every query using the view re-binds (views are inlined).
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/zoned_calls.h"
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

}  // namespace eddy
