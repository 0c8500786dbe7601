#include "worker/connectors/builtin_runtimes.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/connectors/client_stream_connector.h"
#include "common/connectors/connector_registry.h"
#include "common/connectors/datagen_connector.h"
#include "common/connectors/nexmark_connector.h"
#include "common/connectors/sink_only_connectors.h"
#include "worker/connectors/blackhole_sink.h"
#include "worker/connectors/client_stream_source.h"
#include "worker/connectors/collect_sink.h"
#include "worker/connectors/datagen_source.h"
#include "worker/connectors/filesystem_sink.h"
#include "worker/connectors/filesystem_source.h"
#include "worker/connectors/nexmark_source.h"
#include "worker/connectors/print_sink.h"

namespace eddy {
namespace {

std::vector<int> ColumnsOf(const v1::TableSource& spec) {
  return std::vector<int>(spec.columns().begin(), spec.columns().end());
}

class Datagen : public ConnectorRuntime {
 public:
  std::string_view name() const override { return "datagen"; }
  absl::StatusOr<std::unique_ptr<Source>> CreateSource(const v1::TableSource& spec,
                                                       const ConnectorContext& ctx) const override {
    ASSIGN_OR_RETURN(ConnectorTable table, ConnectorTableOf(spec));
    ConnectorConfig config = ConnectorConfigOf(spec);
    ASSIGN_OR_RETURN(v1::DatagenSource datagen, ReadDatagenSpec(table, config, ColumnsOf(spec)));
    return std::make_unique<DatagenSource>(std::move(datagen), ReadColumnsOf(table, spec));
  }
};

class Nexmark : public ConnectorRuntime {
 public:
  std::string_view name() const override { return "nexmark"; }
  absl::StatusOr<std::unique_ptr<Source>> CreateSource(const v1::TableSource& spec,
                                                       const ConnectorContext& ctx) const override {
    ASSIGN_OR_RETURN(ConnectorTable table, ConnectorTableOf(spec));
    ConnectorConfig config = ConnectorConfigOf(spec);
    ASSIGN_OR_RETURN(v1::NexmarkSource nexmark,
                     ReadNexmarkSpec(table, config, ColumnsOf(spec), spec.plan_time_ms()));
    return std::make_unique<NexmarkSource>(std::move(nexmark), ReadColumnsOf(table, spec).Types());
  }
};

class Filesystem : public ConnectorRuntime {
 public:
  std::string_view name() const override { return "filesystem"; }
  absl::StatusOr<std::unique_ptr<Source>> CreateSource(const v1::TableSource& spec,
                                                       const ConnectorContext& ctx) const override {
    if (ctx.filesystem_allowed_dirs == nullptr) {
      return absl::FailedPreconditionError("filesystem source without allowed directories");
    }
    ASSIGN_OR_RETURN(auto source, FilesystemSource::Create(spec, *ctx.filesystem_allowed_dirs));
    return source;
  }
  absl::StatusOr<std::unique_ptr<Operator>> CreateSink(const v1::TableSink& spec,
                                                       const Schema& input,
                                                       const ConnectorContext& ctx) const override {
    if (ctx.filesystem_allowed_dirs == nullptr) {
      return absl::FailedPreconditionError("filesystem sink without allowed directories");
    }
    ASSIGN_OR_RETURN(auto sink, FilesystemSink::Create(spec, input, *ctx.filesystem_allowed_dirs));
    return sink;
  }
};

class Print : public ConnectorRuntime {
 public:
  std::string_view name() const override { return "print"; }
  absl::StatusOr<std::unique_ptr<Operator>> CreateSink(const v1::TableSink& spec,
                                                       const Schema& input,
                                                       const ConnectorContext& ctx) const override {
    ConnectorConfig config = ConnectorConfigOf(spec);
    ASSIGN_OR_RETURN(PrintOptions options, ReadPrintOptions(config));
    return std::make_unique<PrintSink>(options.identifier, options.standard_error);
  }
};

class Blackhole : public ConnectorRuntime {
 public:
  std::string_view name() const override { return "blackhole"; }
  absl::StatusOr<std::unique_ptr<Operator>> CreateSink(const v1::TableSink& spec,
                                                       const Schema& input,
                                                       const ConnectorContext& ctx) const override {
    return std::make_unique<BlackholeSink>();
  }
};

class ClientStream : public ConnectorRuntime {
 public:
  std::string_view name() const override { return kClientStreamConnector; }
  absl::StatusOr<std::unique_ptr<Source>> CreateSource(const v1::TableSource& spec,
                                                       const ConnectorContext& ctx) const override {
    if (ctx.coordinator == nullptr) {
      return absl::FailedPreconditionError("client-stream source without a coordinator channel");
    }
    ASSIGN_OR_RETURN(ConnectorTable table, ConnectorTableOf(spec));
    ConnectorConfig config = ConnectorConfigOf(spec);
    ASSIGN_OR_RETURN(std::string stream_id, config.Required("stream-id"));
    return std::make_unique<ClientStreamSource>(std::move(stream_id), table.name, table.columns,
                                                ColumnsOf(spec), ctx.coordinator);
  }
};

class Collect : public ConnectorRuntime {
 public:
  std::string_view name() const override { return kCollectConnector; }
  absl::StatusOr<std::unique_ptr<Operator>> CreateSink(const v1::TableSink& spec,
                                                       const Schema& input,
                                                       const ConnectorContext& ctx) const override {
    if (ctx.results == nullptr) {
      return absl::FailedPreconditionError("collect sink without result buffers");
    }
    return std::make_unique<CollectSink>(ctx.results);
  }
};

}  // namespace

Schema ReadColumnsOf(const ConnectorTable& table, const v1::TableSource& spec) {
  Schema s;
  for (int c : spec.columns()) s.fields.push_back(table.columns.fields[c]);
  return s;
}

const ConnectorRuntime& DatagenRuntime() {
  static const Datagen kRuntime;
  return kRuntime;
}
const ConnectorRuntime& NexmarkRuntime() {
  static const Nexmark kRuntime;
  return kRuntime;
}
const ConnectorRuntime& FilesystemRuntime() {
  static const Filesystem kRuntime;
  return kRuntime;
}
const ConnectorRuntime& PrintRuntime() {
  static const Print kRuntime;
  return kRuntime;
}
const ConnectorRuntime& BlackholeRuntime() {
  static const Blackhole kRuntime;
  return kRuntime;
}
const ConnectorRuntime& ClientStreamRuntime() {
  static const ClientStream kRuntime;
  return kRuntime;
}
const ConnectorRuntime& CollectRuntime() {
  static const Collect kRuntime;
  return kRuntime;
}

}  // namespace eddy
