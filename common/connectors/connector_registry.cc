#include "common/connectors/connector_registry.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/connectors/client_stream_connector.h"
#include "common/connectors/datagen_connector.h"
#include "common/connectors/filesystem_connector.h"
#include "common/connectors/kafka_connector.h"
#include "common/connectors/nexmark_connector.h"
#include "common/connectors/sink_only_connectors.h"
#include "common/types/collection_codec.h"

namespace eddy {
namespace {

std::string MetadataList(const ConnectorFactory& factory) {
  std::string s;
  for (const MetadataSpec& m : factory.metadata()) {
    absl::StrAppend(&s, s.empty() ? "" : ", ", std::string(m.key));
  }
  return s;
}

absl::Status CheckMetadataColumns(const ConnectorTable& table, const ConnectorFactory& factory) {
  for (size_t c = 0; c < table.columns.size(); ++c) {
    if (!table.IsMetadata(c)) continue;
    const Field& f = table.columns.fields[c];
    const std::string& key = table.metadata_keys[c];
    const std::vector<MetadataSpec> offered = factory.metadata();
    if (offered.empty()) {
      return ConnectorConfig::Error(
          absl::StrCat("metadata column '", f.name, "' of table '", table.name, "': connector '",
                       std::string(factory.name()), "' offers no metadata"));
    }
    auto it = std::find_if(offered.begin(), offered.end(),
                           [&](const MetadataSpec& m) { return m.key == key; });
    if (it == offered.end()) {
      return ConnectorConfig::Error(
          absl::StrCat("metadata column '", f.name, "' of table '", table.name, "': connector '",
                       std::string(factory.name()), "' offers no metadata key '", key,
                       "'; it offers: ", MetadataList(factory)));
    }
    if (f.type.id != it->type.id || f.type.precision != it->type.precision ||
        (f.type.IsCollection() && !SameIgnoringNullability(f.type, it->type))) {
      return ConnectorConfig::Error(
          absl::StrCat("metadata column '", f.name, "' of table '", table.name,
                       "' must be of type ", it->type.WithNullable(true).ToString(),
                       " (metadata key '", key, "'), not ", f.type.ToString()));
    }
  }
  return absl::OkStatus();
}

}  // namespace

Schema ConnectorTable::PhysicalColumns() const {
  Schema s;
  for (int c : PhysicalColumnIndexes()) s.fields.push_back(columns.fields[c]);
  return s;
}

std::vector<int> ConnectorTable::PhysicalColumnIndexes() const {
  std::vector<int> out;
  for (size_t c = 0; c < columns.size(); ++c) {
    if (!IsMetadata(c)) out.push_back(static_cast<int>(c));
  }
  return out;
}

const std::vector<const ConnectorFactory*>& AllConnectorFactories() {
  static const std::vector<const ConnectorFactory*> kAll = [] {
    std::vector<const ConnectorFactory*> all = {
        &BlackholeConnector(), &ClientStreamConnector(), &CollectConnector(),
        &DatagenConnector(),   &FilesystemConnector(),   &KafkaConnector(),
        &NexmarkConnector(),   &PrintConnector(),        &UpsertKafkaConnector(),
    };
    std::sort(all.begin(), all.end(), [](const ConnectorFactory* a, const ConnectorFactory* b) {
      return a->name() < b->name();
    });
    return all;
  }();
  return kAll;
}

const ConnectorFactory* FindConnectorFactory(std::string_view name) {
  for (const ConnectorFactory* f : AllConnectorFactories()) {
    if (f->name() == name) return f;
  }
  return nullptr;
}

std::string SupportedConnectorList() {
  std::string s;
  for (const ConnectorFactory* f : AllConnectorFactories()) {
    if (f->internal()) continue;
    absl::StrAppend(&s, s.empty() ? "" : ", ", std::string(f->name()));
  }
  return s;
}

absl::Status ValidateConnectorTable(const ConnectorTable& table,
                                    const std::map<std::string, std::string>& options,
                                    bool allow_internal) {
  auto connector = options.find("connector");
  if (connector == options.end()) {
    return ConnectorConfig::Error(
        absl::StrCat("table '", table.name, "' has no 'connector' option"));
  }
  const ConnectorFactory* factory = FindConnectorFactory(connector->second);
  if (factory == nullptr || (factory->internal() && !allow_internal)) {
    return ConnectorConfig::Error(absl::StrCat("unknown connector '", connector->second,
                                               "' for table '", table.name,
                                               "'; supported: ", SupportedConnectorList()));
  }
  RETURN_IF_ERROR(CheckMetadataColumns(table, *factory));
  if (!table.partition_keys.empty() && !factory->partitionable()) {
    return ConnectorConfig::Error(
        absl::StrCat("table '", table.name, "' is PARTITIONED BY, but connector '",
                     connector->second, "' does not support partitioned tables"));
  }
  ConnectorConfig config(connector->second, table.name, options);
  RETURN_IF_ERROR(factory->Validate(table, config));
  return config.CheckAllRead();
}

}  // namespace eddy
