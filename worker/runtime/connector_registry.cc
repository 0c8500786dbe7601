#include "worker/runtime/connector_registry.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "worker/connectors/builtin_runtimes.h"
#include "worker/connectors/kafka/kafka_runtimes.h"
#include "worker/connectors/sink_not_null_enforcer.h"

namespace eddy {
namespace {

absl::Status Unknown(const std::string& connector, const std::string& table) {
  return absl::InvalidArgumentError(
      absl::StrCat("unknown connector '", connector, "' for table '", table, "'"));
}

}  // namespace

const std::vector<const ConnectorRuntime*>& AllConnectorRuntimes() {
  static const std::vector<const ConnectorRuntime*> kAll = {
      &BlackholeRuntime(), &ClientStreamRuntime(), &CollectRuntime(),
      &DatagenRuntime(),   &FilesystemRuntime(),   &KafkaRuntime(),
      &NexmarkRuntime(),   &PrintRuntime(),        &UpsertKafkaRuntime(),
  };
  return kAll;
}

const ConnectorRuntime* FindConnectorRuntime(std::string_view name) {
  for (const ConnectorRuntime* r : AllConnectorRuntimes()) {
    if (r->name() == name) return r;
  }
  return nullptr;
}

absl::StatusOr<std::unique_ptr<Source>> CreateTableSource(const v1::TableSource& spec,
                                                          const ConnectorContext& ctx) {
  const ConnectorRuntime* runtime = FindConnectorRuntime(spec.connector());
  if (runtime == nullptr) return Unknown(spec.connector(), spec.table_name());
  return runtime->CreateSource(spec, ctx);
}

absl::StatusOr<std::unique_ptr<Operator>> CreateTableSink(const v1::TableSink& spec,
                                                          const Schema& input,
                                                          const ConnectorContext& ctx) {
  const ConnectorRuntime* runtime = FindConnectorRuntime(spec.connector());
  if (runtime == nullptr) return Unknown(spec.connector(), spec.table_name());
  ASSIGN_OR_RETURN(std::unique_ptr<Operator> sink, runtime->CreateSink(spec, input, ctx));
  if (spec.not_null_columns().empty()) return sink;
  // The table's NOT NULL columns are checked in front of whatever the connector writes.
  std::vector<NotNullColumn> columns;
  for (int32_t c : spec.not_null_columns()) {
    if (c < 0 || static_cast<size_t>(c) >= input.size()) {
      return absl::InvalidArgumentError(absl::StrCat("sink of table '", spec.table_name(),
                                                     "': NOT NULL column ", c, " out of range"));
    }
    columns.push_back({c, input.fields[c].name});
  }
  return std::make_unique<SinkNotNullEnforcer>(
      std::move(sink), std::move(columns),
      spec.drop_rows_with_nulls() ? NotNullEnforcement::kDrop : NotNullEnforcement::kError);
}

}  // namespace eddy
