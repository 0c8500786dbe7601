// UNION ALL: forwards every input's batches unchanged, in arrival order.
#pragma once

#include "worker/operators/operator.h"

namespace eddy {

class UnionOperator : public Operator {
 public:
  absl::Status Process(int input, const ChangelogBatch& batch) override {
    CountIn(batch);
    return Emit(batch);
  }
};

}  // namespace eddy
