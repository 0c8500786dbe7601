// Hints. A table reference's /*+ OPTIONS('k' = 'v', ...) */ (Flink's dynamic table options) gives
// that reference, in a query or as an INSERT's target, the table's options with these merged in,
// validated as CREATE TABLE validates options (off with table.dynamic-table-options.enabled =
// false, as in Flink). Query hints after SELECT (join strategies, LOOKUP, STATE_TTL) are refused
// by name: the planner takes none.
#include <cstring>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/config_values.h"
#include "coordinator/planner/connector_options.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {

absl::StatusOr<std::shared_ptr<const CatalogTable>> Binder::ApplyTableHints(
    std::shared_ptr<const CatalogTable> table, const std::vector<sql::HintDef>& hints) {
  if (hints.empty()) return table;
  if (!ConfigFlag(config_, "table.dynamic-table-options.enabled", true)) {
    return ValidationErrorAt(hints[0].pos,
                             "OPTIONS hint is allowed only when "
                             "table.dynamic-table-options.enabled is set to true");
  }
  CatalogTable hinted = *table;
  for (const sql::HintDef& hint : hints) {
    if (hint.name != "OPTIONS") {
      return ValidationErrorAt(hint.pos, absl::StrCat("Unknown table hint '", hint.name,
                                                      "': a table takes the OPTIONS hint only"));
    }
    if (!hint.args.empty() || hint.options.entries.empty()) {
      return ValidationErrorAt(hint.pos,
                               "the OPTIONS hint takes 'key' = 'value' pairs: OPTIONS('k' = 'v')");
    }
    for (const auto& [key, value] : hint.options.entries) {
      SetOption(hinted.options, key, value);
      SetOption(hinted.hint_options, key, value);
    }
  }
  if (absl::Status s = ValidateConnectorOptions(hinted); !s.ok()) {
    std::string why(s.message());
    if (why.rfind("Validation error: ", 0) == 0) why = why.substr(strlen("Validation error: "));
    return ValidationErrorAt(hints[0].pos, absl::StrCat("the OPTIONS hint on table '",
                                                        table->path.ToString(), "': ", why));
  }
  return std::make_shared<const CatalogTable>(std::move(hinted));
}

absl::Status Binder::RefuseQueryHints(const std::vector<sql::HintDef>& hints) {
  if (hints.empty()) return absl::OkStatus();
  const sql::HintDef& hint = hints[0];
  if (hint.name == "OPTIONS") {
    return ValidationErrorAt(hint.pos,
                             "OPTIONS is a table hint: write it after the table's name, "
                             "FROM t /*+ OPTIONS('k' = 'v') */");
  }
  return ValidationErrorAt(
      hint.pos, absl::StrCat("Query hint '", hint.name,
                             "' is not supported: Eddy's planner takes no query hints (join "
                             "strategies, LOOKUP, STATE_TTL); 'table.exec.state.ttl' sets the "
                             "state's time-to-live for the whole job"));
}

}  // namespace eddy::planner
