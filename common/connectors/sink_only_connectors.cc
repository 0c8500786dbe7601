#include "common/connectors/sink_only_connectors.h"

#include "common/base/status_macros.h"
#include "common/connectors/connector_registry.h"

namespace eddy {
namespace {

class Print : public ConnectorFactory {
 public:
  std::string_view name() const override { return "print"; }
  bool can_write() const override { return true; }
  SinkChanges sink_changes() const override { return SinkChanges::kRetract; }
  absl::Status Validate(const ConnectorTable& table, ConnectorConfig& config) const override {
    RETURN_IF_ERROR(ReadPrintOptions(config).status());
    return config.Int("sink.parallelism", 1, 1).status();
  }
};

class Blackhole : public ConnectorFactory {
 public:
  std::string_view name() const override { return "blackhole"; }
  bool can_write() const override { return true; }
  SinkChanges sink_changes() const override { return SinkChanges::kUpsert; }
  absl::Status Validate(const ConnectorTable& table, ConnectorConfig& config) const override {
    return absl::OkStatus();
  }
};

class Collect : public ConnectorFactory {
 public:
  std::string_view name() const override { return kCollectConnector; }
  bool can_write() const override { return true; }
  bool internal() const override { return true; }
  SinkChanges sink_changes() const override { return SinkChanges::kRetract; }
  absl::Status Validate(const ConnectorTable& table, ConnectorConfig& config) const override {
    return absl::OkStatus();
  }
};

}  // namespace

const ConnectorFactory& PrintConnector() {
  static const Print kPrint;
  return kPrint;
}

const ConnectorFactory& BlackholeConnector() {
  static const Blackhole kBlackhole;
  return kBlackhole;
}

const ConnectorFactory& CollectConnector() {
  static const Collect kCollect;
  return kCollect;
}

absl::StatusOr<PrintOptions> ReadPrintOptions(ConnectorConfig& config) {
  PrintOptions o;
  o.identifier = config.Get("print-identifier").value_or("");
  ASSIGN_OR_RETURN(o.standard_error, config.Bool("standard-error", false));
  return o;
}

}  // namespace eddy
