#include "common/connectors/filesystem_connector.h"

#include "common/base/status_macros.h"

namespace eddy {
namespace {

class Filesystem : public ConnectorFactory {
 public:
  std::string_view name() const override { return "filesystem"; }
  bool can_read() const override { return true; }
  bool can_write() const override { return true; }
  absl::Status Validate(const ConnectorTable& table, ConnectorConfig& config) const override {
    RETURN_IF_ERROR(ReadFilesystemOptions(config).status());
    return config.Int("sink.parallelism", 1, 1).status();
  }
  bool Bounded(const ConnectorTable& table, ConnectorConfig& config) const override { return true; }
};

}  // namespace

const ConnectorFactory& FilesystemConnector() {
  static const Filesystem kFilesystem;
  return kFilesystem;
}

absl::StatusOr<FilesystemOptions> ReadFilesystemOptions(ConnectorConfig& config) {
  FilesystemOptions o;
  ASSIGN_OR_RETURN(o.path, config.Required("path"));
  ASSIGN_OR_RETURN(o.format, ReadFormat(config, "format", {FormatKind::kCsv, FormatKind::kJson},
                                        /*with_ignore_first_line=*/true));
  ASSIGN_OR_RETURN(o.file_size_bytes,
                   config.MemoryBytes("sink.rolling-policy.file-size", o.file_size_bytes));
  ASSIGN_OR_RETURN(
      o.rollover_interval_ms,
      config.DurationMs("sink.rolling-policy.rollover-interval", o.rollover_interval_ms));
  ASSIGN_OR_RETURN(
      o.inactivity_interval_ms,
      config.DurationMs("sink.rolling-policy.inactivity-interval", o.inactivity_interval_ms));
  ASSIGN_OR_RETURN(o.check_interval_ms,
                   config.DurationMs("sink.rolling-policy.check-interval", o.check_interval_ms));
  return o;
}

}  // namespace eddy
