#include "common/connectors/table_spec.h"

#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/types/type_proto.h"

namespace eddy {

absl::StatusOr<ConnectorTable> ConnectorTableOf(const v1::TableSource& spec) {
  ConnectorTable t;
  t.name = spec.table_name();
  ASSIGN_OR_RETURN(t.columns, SchemaFromProto(spec.table_schema()));
  const int n = static_cast<int>(t.columns.size());
  t.metadata_keys.assign(t.columns.size(), "");
  t.metadata_virtual.assign(t.columns.size(), false);
  if (spec.metadata_keys_size() != 0 && spec.metadata_keys_size() != n) {
    return absl::InvalidArgumentError(absl::StrCat("table '", spec.table_name(),
                                                   "': ", spec.metadata_keys_size(),
                                                   " metadata keys for ", n, " columns"));
  }
  for (int c = 0; c < spec.metadata_keys_size(); ++c) t.metadata_keys[c] = spec.metadata_keys(c);
  for (int c : spec.primary_key()) {
    if (c < 0 || c >= n) {
      return absl::InvalidArgumentError(
          absl::StrCat("table '", spec.table_name(), "': primary key column ", c, " out of range"));
    }
    t.primary_key.push_back(c);
  }
  for (int c : spec.partition_keys()) {
    if (c < 0 || c >= n) {
      return absl::InvalidArgumentError(
          absl::StrCat("table '", spec.table_name(), "': partition column ", c, " out of range"));
    }
    t.partition_keys.push_back(c);
  }
  for (int c : spec.columns()) {
    if (c < 0 || c >= n) {
      return absl::InvalidArgumentError(
          absl::StrCat("table '", spec.table_name(), "': column ", c, " out of range"));
    }
  }
  return t;
}

ConnectorConfig ConnectorConfigOf(const v1::TableSource& spec) {
  return ConnectorConfig(
      spec.connector(), spec.table_name(),
      std::map<std::string, std::string>(spec.options().begin(), spec.options().end()));
}

ConnectorTable ConnectorTableOf(const v1::TableSink& spec, const Schema& input) {
  ConnectorTable t;
  t.name = spec.table_name();
  t.columns = input;
  t.metadata_keys.assign(input.size(), "");
  t.metadata_virtual.assign(input.size(), false);
  for (int c = 0; c < spec.metadata_keys_size() && c < static_cast<int>(input.size()); ++c) {
    t.metadata_keys[c] = spec.metadata_keys(c);
  }
  for (int c : spec.primary_key()) {
    if (c >= 0 && c < static_cast<int>(input.size())) t.primary_key.push_back(c);
  }
  for (int c : spec.partition_keys()) {
    if (c >= 0 && c < static_cast<int>(input.size())) t.partition_keys.push_back(c);
  }
  return t;
}

ConnectorConfig ConnectorConfigOf(const v1::TableSink& spec) {
  return ConnectorConfig(
      spec.connector(), spec.table_name(),
      std::map<std::string, std::string>(spec.options().begin(), spec.options().end()));
}

}  // namespace eddy
