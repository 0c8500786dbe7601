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
};

absl::StatusOr<FilesystemOptions> ReadFilesystemOptions(ConnectorConfig& config);

}  // namespace eddy
