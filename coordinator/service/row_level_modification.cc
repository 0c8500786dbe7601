#include "coordinator/service/row_level_modification.h"

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "coordinator/planner/config_values.h"

namespace eddy {

absl::Status ExecuteRowLevelModification(Session& session,
                                         const sql::RowLevelModification& modification) {
  const bool is_delete = modification.kind == sql::RowLevelModification::Kind::kDelete;
  const SessionCatalog& catalog = session.catalog;
  ASSIGN_OR_RETURN(ObjectPath path, catalog.Resolve(modification.table));
  std::shared_ptr<const CatalogTable> table = catalog.FindTable(path);
  if (table == nullptr) {
    if (catalog.FindView(path) != nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("Validation error: '", path.ToString(),
                                                     "' is a view: only a table's rows can be ",
                                                     is_delete ? "deleted" : "updated"));
    }
    return absl::NotFoundError(
        absl::StrCat("Validation error: table '", path.ToString(), "' not found"));
  }
  for (const auto& [column, value] : modification.assignments) {
    if (!table->schema.FindField(column)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Validation error: column '", column, "' not found in table '", path.ToString(), "'"));
    }
  }
  const char* what = is_delete ? "DELETE" : "UPDATE";
  if (!planner::IsBatchMode(session.config)) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " statement is not supported for streaming mode now."));
  }
  const std::string* connector = table->FindOption("connector");
  return absl::InvalidArgumentError(absl::StrCat(
      "Can't perform ", is_delete ? "delete" : "update", " operation of the table ",
      path.ToString(), " because its connector '", connector ? *connector : "", "' cannot ",
      is_delete ? "delete" : "update", " rows in place (no connector of Eddy can)."));
}

}  // namespace eddy
