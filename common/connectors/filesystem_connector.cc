#include "common/connectors/filesystem_connector.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/base/status_macros.h"
#include "common/connectors/partition_time_extractor.h"

namespace eddy {
namespace {

class Filesystem : public ConnectorFactory {
 public:
  std::string_view name() const override { return "filesystem"; }
  bool can_read() const override { return true; }
  bool can_write() const override { return true; }
  bool partitionable() const override { return true; }
  absl::Status Validate(const ConnectorTable& table, ConnectorConfig& config) const override {
    if (!table.partition_keys.empty() &&
        table.partition_keys.size() >= table.PhysicalColumnIndexes().size()) {
      return ConnectorConfig::Error(
          absl::StrCat("table '", table.name,
                       "' is partitioned by all its columns; a filesystem table needs at least "
                       "one column that is not a partition column, to write into its files"));
    }
    ASSIGN_OR_RETURN(FilesystemOptions options, ReadFilesystemOptions(config));
    Schema file_columns;
    for (int c : table.PhysicalColumnIndexes())
      file_columns.fields.push_back(table.columns.fields[c]);
    RETURN_IF_ERROR(CheckFormatColumns(options.format, file_columns, table.name, "the columns"));
    if (options.commit_trigger == FilesystemOptions::CommitTrigger::kPartitionTime) {
      std::vector<std::string> keys;
      for (int k : table.partition_keys) keys.push_back(table.columns.fields[k].name);
      absl::Status extractor = PartitionTimeExtractor::Create(
                                   options.time_extractor_pattern, options.time_extractor_formatter,
                                   options.watermark_time_zone, std::move(keys))
                                   .status();
      if (!extractor.ok()) {
        return ConnectorConfig::Error(
            absl::StrCat("table '", table.name, "': ", extractor.message()));
      }
    }
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
  if (std::optional<std::string> name = config.Get("partition.default-name")) {
    if (name->empty()) return config.Bad("partition.default-name", "a non-empty directory name");
    o.default_partition_name = *name;
  }
  ASSIGN_OR_RETURN(std::string trigger,
                   config.Enum("sink.partition-commit.trigger", {"process-time", "partition-time"},
                               "process-time"));
  if (trigger == "partition-time") {
    o.commit_trigger = FilesystemOptions::CommitTrigger::kPartitionTime;
  }
  // 'custom' (a user's Java class) has no counterpart here.
  RETURN_IF_ERROR(config.Enum("partition.time-extractor.kind", {"default"}, "default").status());
  if (std::optional<std::string> p = config.Get("partition.time-extractor.timestamp-pattern")) {
    o.time_extractor_pattern = *p;
  }
  if (std::optional<std::string> f = config.Get("partition.time-extractor.timestamp-formatter")) {
    o.time_extractor_formatter = *f;
  }
  if (std::optional<std::string> z = config.Get("sink.partition-commit.watermark-time-zone")) {
    o.watermark_time_zone = *z;
  }
  ASSIGN_OR_RETURN(o.commit_delay_ms,
                   config.NonNegativeDurationMs("sink.partition-commit.delay", 0));
  if (std::optional<std::string> kinds = config.Get(kCommitPolicyOption)) {
    for (absl::string_view kind : absl::StrSplit(*kinds, ',')) {
      const std::string k(absl::StripAsciiWhitespace(kind));
      if (k == "success-file") {
        o.commit_success_file = true;
      } else if (k == "metastore") {
        o.commit_metastore = true;
      } else {
        return config.Bad("sink.partition-commit.policy.kind",
                          "a comma-separated list of 'success-file' and 'metastore' (the policies "
                          "implemented)");
      }
    }
  }
  if (std::optional<std::string> name = config.Get("sink.partition-commit.success-file.name")) {
    if (name->empty() || name->find('/') != std::string::npos) {
      return config.Bad("sink.partition-commit.success-file.name", "a file name");
    }
    o.success_file_name = *name;
  }
  ASSIGN_OR_RETURN(o.shuffle_by_partition, config.Bool(kShuffleByPartitionOption, false));
  return o;
}

}  // namespace eddy
