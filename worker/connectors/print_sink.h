// The print connector: writes every row as Flink does, `<prefix><kind>[f1, f2, ...]`, to the
// worker's stdout or stderr. Prefix: the print-identifier, then `:<subtask>` (1-based, only with
// parallelism > 1 and an identifier) or `<subtask>` alone, then `> ` when non-empty. One write per
// batch.
#pragma once

#include <cstdio>
#include <string>

#include "worker/operators/operator.h"

namespace eddy {

class PrintSink : public Operator {
 public:
  PrintSink(std::string identifier, bool standard_error)
      : identifier_(std::move(identifier)), standard_error_(standard_error) {}

  absl::Status Open(const OperatorContext& ctx) override;
  absl::Status Process(int input, const ChangelogBatch& batch) override;

  // The prefix for a subtask; exposed for tests.
  static std::string MakePrefix(const std::string& identifier, int subtask_index, int parallelism);

 private:
  std::string identifier_;
  bool standard_error_;
  std::string prefix_;
  std::string buffer_;
};

// Serializes whole-batch writes of every print sink in the process so lines never interleave.
void WriteToStream(FILE* stream, const std::string& text);

}  // namespace eddy
