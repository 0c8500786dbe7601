#include "coordinator/planner/connector_options.h"

#include <map>
#include <optional>

#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {

ConnectorTable ConnectorTableOf(const CatalogTable& table, bool sink) {
  ConnectorTable t;
  t.name = table.path.ToString();
  for (size_t i = 0; i < table.schema.size(); ++i) {
    if (table.IsComputed(i) || (sink && table.IsVirtual(i))) continue;
    t.columns.fields.push_back(table.schema.fields[i]);
    t.metadata_keys.push_back(table.IsMetadata(i) ? table.metadata_keys[i] : "");
    t.metadata_virtual.push_back(table.IsVirtual(i));
  }
  for (const std::string& key : table.primary_key) {
    if (std::optional<int> c = t.columns.FindField(key)) t.primary_key.push_back(*c);
  }
  for (const std::string& key : table.partition_keys) {
    if (std::optional<int> c = t.columns.FindField(key)) t.partition_keys.push_back(*c);
  }
  return t;
}

ConnectorConfig ConnectorConfigOf(const CatalogTable& table) {
  return ConnectorConfig(
      table.connector(), table.path.ToString(),
      std::map<std::string, std::string>(table.options.begin(), table.options.end()));
}

const ConnectorFactory* ConnectorOf(const CatalogTable& table) {
  return FindConnectorFactory(table.connector());
}

absl::Status ValidateConnectorOptions(const CatalogTable& table, bool allow_internal) {
  absl::Status s = ValidateConnectorTable(
      ConnectorTableOf(table),
      std::map<std::string, std::string>(table.options.begin(), table.options.end()),
      allow_internal);
  if (s.ok() || s.code() != absl::StatusCode::kInvalidArgument) return s;
  return ValidationError(std::string(s.message()));
}

}  // namespace eddy::planner
