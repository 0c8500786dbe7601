// A connector's planning half: one factory per connector validates a table's options and
// columns, and declares what the connector can do (read, write, which changes it produces and
// consumes, whether a scan ends, which metadata it offers). The coordinator plans with it; workers
// read the same options through the same code when they build the connector's source or sink
// (the runtime half, worker/connectors/connector_registry.h, registered under the same name).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "common/connectors/connector_config.h"
#include "common/types/data_type.h"

namespace eddy {

// What a factory sees of a table: the columns its connector reads or writes (physical and metadata
// columns in declared order; computed columns are the planner's) and the primary key.
struct ConnectorTable {
  std::string name;  // fully qualified, for messages
  Schema columns;
  std::vector<std::string> metadata_keys;  // per column: its metadata key, "" for physical
  std::vector<bool> metadata_virtual;      // per column: a VIRTUAL metadata column (read only)
  std::vector<int> primary_key;            // indexes into columns
  std::vector<int> partition_keys;         // PARTITIONED BY: indexes into columns, in order

  bool IsMetadata(size_t column) const {
    return column < metadata_keys.size() && !metadata_keys[column].empty();
  }
  // The physical columns alone, in order: what a format encodes.
  Schema PhysicalColumns() const;
  std::vector<int> PhysicalColumnIndexes() const;
};

// The changes a source produces.
enum class SourceChanges {
  kInsertOnly,
  kUpsert,  // +I, +U and -D by primary key, no -U (the planner normalizes them)
};

// The changes a sink consumes.
enum class SinkChanges {
  kInsertOnly,  // append-only
  kUpsert,      // updates and deletes, without UPDATE_BEFORE
  kRetract,     // updates with UPDATE_BEFORE, and deletes
};

// A metadata column a connector offers: its key, the type it has, and whether a sink writes it.
struct MetadataSpec {
  std::string_view key;
  DataType type;
  bool writable = false;
};

class ConnectorFactory {
 public:
  virtual ~ConnectorFactory() = default;

  // The 'connector' option's value.
  virtual std::string_view name() const = 0;
  virtual bool can_read() const { return false; }
  virtual bool can_write() const { return false; }
  // Whether a table of this connector may be PARTITIONED BY columns.
  virtual bool partitionable() const { return false; }
  // Planned internally only (the collect sink of a SELECT); CREATE TABLE cannot name it.
  virtual bool internal() const { return false; }

  // Checks the table's columns and options, reading every option the connector knows from
  // `config` (ValidateConnectorTable then makes any other option an error). Errors are
  // InvalidArgument and name the table and the option.
  virtual absl::Status Validate(const ConnectorTable& table, ConnectorConfig& config) const = 0;

  virtual SourceChanges source_changes() const { return SourceChanges::kInsertOnly; }
  virtual SinkChanges sink_changes() const { return SinkChanges::kInsertOnly; }
  // Whether a scan of the (validated) table ends.
  virtual bool Bounded(const ConnectorTable& table, ConnectorConfig& config) const { return false; }
  // The rows a scan produces, when the options fix them (join ordering); nullopt: unknown.
  virtual std::optional<double> RowCount(ConnectorConfig& config) const { return std::nullopt; }
  // The metadata columns a table of this connector may declare.
  virtual std::vector<MetadataSpec> metadata() const { return {}; }
};

}  // namespace eddy
