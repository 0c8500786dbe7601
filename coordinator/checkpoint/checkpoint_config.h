// The checkpointing settings of a job, from its session's `execution.checkpointing.*` and
// `state.checkpoints.*` keys (Flink's names and defaults), checked once when the job is submitted.
#pragma once

#include <chrono>
#include <map>
#include <string>

#include "absl/status/statusor.h"

namespace eddy {

struct CheckpointConfig {
  std::chrono::milliseconds interval{0};  // 0: checkpointing off (the default)
  bool exactly_once = true;               // EXACTLY_ONCE aligns barriers; AT_LEAST_ONCE counts them
  std::chrono::milliseconds timeout{10 * 60 * 1000};
  std::chrono::milliseconds min_pause{0};  // between the end of one and the start of the next
  int max_concurrent = 1;
  int tolerable_failures = 0;  // failed checkpoints in a row beyond this fail the job
  std::string dir;             // the checkpoints directory; a job's checkpoints in <dir>/<job id>
  int num_retained = 1;
  // Savepoints (docs/savepoints.md): where STOP JOB ... WITH SAVEPOINT writes them
  // (state.savepoints.dir), and the one the job starts from (execution.savepoint.path, with
  // execution.savepoint.ignore-unclaimed-state). Paths without file://.
  std::string savepoints_dir;
  std::string savepoint_path;
  bool ignore_unclaimed_state = false;

  bool enabled() const { return interval.count() > 0; }
};

// Reads the keys from `config`; `default_dir` is used without `state.checkpoints.dir` (the
// coordinator's --checkpoints-dir), `default_savepoints_dir` without `state.savepoints.dir`. A
// `file://` prefix is accepted and removed; other schemes are an error. An error names the key and
// the value.
absl::StatusOr<CheckpointConfig> CheckpointConfigFrom(
    const std::map<std::string, std::string>& config, const std::string& default_dir,
    const std::string& default_savepoints_dir = "");

}  // namespace eddy
