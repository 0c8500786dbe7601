// Partitioner: decides which exchange target(s) each row of a batch goes to and appends the rows to
// per-target batch builders that the caller reuses. HASH uses the same key bytes (KeyEncoder) and
// key group formula (KeyGroupOf, SubtaskOfKeyGroup) as GroupAggregate, so a row reaches the subtask
// that owns its key group.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/batch/changelog_batch.h"
#include "eddy/v1/plan.pb.h"
#include "worker/operators/key_encoder.h"

namespace eddy {

using Partitioning = v1::ExchangeSink::Partitioning;

class Partitioner {
 public:
  // `key_columns` (HASH only) index into `input_types`. `num_targets` >= 1; FORWARD and SINGLETON
  // need exactly one. `start` is the first REBALANCE target (the producer's subtask index spreads
  // producers over targets).
  static absl::StatusOr<Partitioner> Create(Partitioning partitioning,
                                            const std::vector<DataType>& input_types,
                                            std::vector<int> key_columns, int num_targets,
                                            int max_parallelism, int start = 0);

  Partitioning partitioning() const { return partitioning_; }
  int num_targets() const { return num_targets_; }

  // The target of a HASH row, as the downstream keyed operator computes it.
  int HashTarget(const ChangelogBatch& batch, size_t row);

  // Appends rows [begin, end) of `in` to (*outs)[target] for each row's target; outs has
  // num_targets() batches of the input's column types.
  void Split(const ChangelogBatch& in, size_t begin, size_t end, std::vector<ChangelogBatch>* outs);

 private:
  Partitioner(Partitioning partitioning, KeyEncoder encoder, int num_targets, int max_parallelism,
              int start)
      : partitioning_(partitioning),
        encoder_(std::move(encoder)),
        num_targets_(num_targets),
        max_parallelism_(max_parallelism),
        next_(start % num_targets) {}

  void SplitByTargets(const ChangelogBatch& in, size_t begin, size_t end,
                      std::vector<ChangelogBatch>* outs);

  Partitioning partitioning_;
  KeyEncoder encoder_;
  int num_targets_;
  int max_parallelism_;
  int next_;                  // REBALANCE: next target
  std::string key_buf_;       // reused per row: no allocation once warm
  std::vector<int> targets_;  // target per row of the current range
};

}  // namespace eddy
