#include "worker/connectors/print_sink.h"

#include <mutex>

namespace eddy {

void WriteToStream(FILE* stream, const std::string& text) {
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  std::fwrite(text.data(), 1, text.size(), stream);
  std::fflush(stream);
}

std::string PrintSink::MakePrefix(const std::string& identifier, int subtask_index,
                                  int parallelism) {
  std::string prefix = identifier;
  if (parallelism > 1) {
    if (!prefix.empty()) prefix += ':';
    prefix += std::to_string(subtask_index + 1);
  }
  if (!prefix.empty()) prefix += "> ";
  return prefix;
}

absl::Status PrintSink::Open(const OperatorContext& ctx) {
  prefix_ = MakePrefix(identifier_, ctx.subtask_index, ctx.parallelism);
  return absl::OkStatus();
}

absl::Status PrintSink::Process(int input, const ChangelogBatch& batch) {
  CountIn(batch);
  buffer_.clear();
  for (size_t r = 0; r < batch.num_rows(); ++r) {
    buffer_ += prefix_;
    buffer_ += FormatRow(batch, r);
    buffer_ += '\n';
  }
  WriteToStream(standard_error_ ? stderr : stdout, buffer_);
  return absl::OkStatus();
}

}  // namespace eddy
