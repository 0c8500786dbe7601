// The runtime halves of the connectors built into the worker library: datagen, nexmark and
// filesystem sources, print, blackhole and filesystem sinks, and the internal collect sink.
#pragma once

#include "worker/connectors/connector_runtime.h"

namespace eddy {

const ConnectorRuntime& DatagenRuntime();
const ConnectorRuntime& NexmarkRuntime();
const ConnectorRuntime& FilesystemRuntime();
const ConnectorRuntime& PrintRuntime();
const ConnectorRuntime& BlackholeRuntime();
const ConnectorRuntime& CollectRuntime();
const ConnectorRuntime& ClientStreamRuntime();

// The columns a source reads: table_schema's `columns`, in output order.
Schema ReadColumnsOf(const ConnectorTable& table, const v1::TableSource& spec);

}  // namespace eddy
