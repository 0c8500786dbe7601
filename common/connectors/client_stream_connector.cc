#include "common/connectors/client_stream_connector.h"

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"

namespace eddy {
namespace {

class ClientStream : public ConnectorFactory {
 public:
  std::string_view name() const override { return kClientStreamConnector; }
  bool can_read() const override { return true; }
  bool internal() const override { return true; }
  absl::Status Validate(const ConnectorTable& table, ConnectorConfig& config) const override {
    RETURN_IF_ERROR(config.Required("stream-id").status());
    // One subtask reads the stream, in the order the program wrote it (the job graph reads it).
    ASSIGN_OR_RETURN(int64_t parallelism, config.Int("scan.parallelism", 1, 1));
    if (parallelism != 1) {
      return ConnectorConfig::Error(absl::StrCat("table '", table.name,
                                                 "': a client stream is read by one subtask, "
                                                 "'scan.parallelism' must be 1"));
    }
    return absl::OkStatus();
  }
  // The stream ends when the program closes its writer, which the plan cannot know.
  bool Bounded(const ConnectorTable&, ConnectorConfig&) const override { return false; }
};

}  // namespace

const ConnectorFactory& ClientStreamConnector() {
  static const ClientStream kClientStream;
  return kClientStream;
}

}  // namespace eddy
