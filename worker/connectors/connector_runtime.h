// A connector's runtime half: builds its source or sink on a worker from the plan's generic
// TableSource / TableSink messages. Its planning half, registered under the same name, is the
// ConnectorFactory of common/connectors; a runtime reads the options through the same code
// (ConnectorConfig and the connector's reader) that validated them at CREATE TABLE.
// worker/runtime/connector_registry.h lists every runtime.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/connectors/connector_config.h"
#include "common/connectors/connector_factory.h"
#include "common/connectors/table_spec.h"
#include "common/types/data_type.h"
#include "eddy/v1/plan.pb.h"
#include "worker/operators/operator.h"
#include "worker/operators/source.h"

namespace grpc {
class Channel;
}  // namespace grpc

namespace eddy {

class ResultBuffers;

// What the worker provides to connectors, beyond the OperatorContext they get at Open.
struct ConnectorContext {
  // Canonical directories the filesystem connector may use (--filesystem-allowed-dirs); null:
  // filesystem tables are refused.
  const std::vector<std::string>* filesystem_allowed_dirs = nullptr;
  ResultBuffers* results = nullptr;  // null: collect sinks are refused
  // The worker's channel to the coordinator (client-stream sources pull from it); null: refused.
  std::shared_ptr<grpc::Channel> coordinator = nullptr;
};

class ConnectorRuntime {
 public:
  virtual ~ConnectorRuntime() = default;
  virtual std::string_view name() const = 0;
  // Defaults refuse: the connector cannot be read, or written.
  virtual absl::StatusOr<std::unique_ptr<Source>> CreateSource(const v1::TableSource& spec,
                                                               const ConnectorContext& ctx) const;
  // `input`: the sink node's columns, named as the table names them.
  virtual absl::StatusOr<std::unique_ptr<Operator>> CreateSink(const v1::TableSink& spec,
                                                               const Schema& input,
                                                               const ConnectorContext& ctx) const;
};

}  // namespace eddy
