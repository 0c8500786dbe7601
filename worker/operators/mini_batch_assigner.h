// MiniBatchAssigner: the node Flink puts after a source when mini-batch is on. Flink's emits
// mini-batch markers that the aggregates flush on; ours forwards every batch unchanged, because
// each aggregate cuts its own mini-batches (by size, by its timer, at the end of input). It runs
// chained to its source, so it costs one call per batch.
#pragma once

#include "worker/operators/operator.h"

namespace eddy {

class MiniBatchAssignerOperator : public Operator {
 public:
  absl::Status Process(int input, const ChangelogBatch& batch) override {
    CountIn(batch);
    return Emit(batch);
  }
};

}  // namespace eddy
