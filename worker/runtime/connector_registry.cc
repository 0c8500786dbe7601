#include "worker/runtime/connector_registry.h"

#include "absl/strings/str_cat.h"
#include "worker/connectors/builtin_runtimes.h"
#include "worker/connectors/kafka/kafka_runtimes.h"

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
  return runtime->CreateSink(spec, input, ctx);
}

}  // namespace eddy
