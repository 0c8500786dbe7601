// The blackhole connector: accepts every row and discards it (counts them, for metrics and
// benchmarks).
#pragma once

#include "worker/operators/operator.h"

namespace eddy {

class BlackholeSink : public Operator {
 public:
  absl::Status Process(int input, const ChangelogBatch& batch) override {
    CountIn(batch);
    return absl::OkStatus();
  }
};

}  // namespace eddy
