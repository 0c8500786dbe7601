// The filesystem connector (Flink's, with the csv and json formats): a bounded source of the file
// or directory at 'path', and an append-only sink writing part files there, rolled by the
// 'sink.rolling-policy.*' options. Its options are read here for the planner and the worker alike.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "common/connectors/connector_factory.h"
#include "common/connectors/format_options.h"

namespace eddy {

const ConnectorFactory& FilesystemConnector();

struct FilesystemOptions {
  std::string path;  // as written; the coordinator makes it absolute and canonical
  FormatOptions format;
  // sink.rolling-policy.*
  int64_t file_size_bytes = int64_t{128} << 20;
  int64_t rollover_interval_ms = 30 * 60 * 1000;
  int64_t inactivity_interval_ms = 30 * 60 * 1000;
  int64_t check_interval_ms = 60 * 1000;
  // Partitioned tables (common/connectors/partition_path.h): the directory name of NULL and '',
  // and the partition commit (sink.partition-commit.*): after `commit_delay_ms` of processing time
  // since a partition was created (trigger 'process-time'), once the watermark passed the
  // partition's time plus `commit_delay_ms` (trigger 'partition-time': the time the extractor
  // options give, common/connectors/partition_time_extractor.h), or when a bounded input ends, its
  // published files are announced by the policies ('success-file' writes
  // `success_file_name` into it; 'metastore' has nothing to do: the catalog lists partitions from
  // the directories, as Flink's filesystem tables do).
  std::string default_partition_name = "__DEFAULT_PARTITION__";
  enum class CommitTrigger { kProcessTime, kPartitionTime };
  CommitTrigger commit_trigger = CommitTrigger::kProcessTime;
  int64_t commit_delay_ms = 0;
  std::string time_extractor_pattern;    // partition.time-extractor.timestamp-pattern
  std::string time_extractor_formatter;  // partition.time-extractor.timestamp-formatter
  std::string watermark_time_zone = "UTC";
  bool commit_success_file = false;
  bool commit_metastore = false;
  std::string success_file_name = "_SUCCESS";
  // sink.shuffle-by-partition.enable: rows reach the sink hash-partitioned by their partition
  // values, so each partition is written by one subtask (fewer files, possible skew).
  bool shuffle_by_partition = false;
};

inline constexpr char kShuffleByPartitionOption[] = "sink.shuffle-by-partition.enable";
inline constexpr char kCommitPolicyOption[] = "sink.partition-commit.policy.kind";

absl::StatusOr<FilesystemOptions> ReadFilesystemOptions(ConnectorConfig& config);

}  // namespace eddy
