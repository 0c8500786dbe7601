// The runtime halves of the kafka and upsert-kafka connectors (registered with the worker's
// connector registry under the names of their planning halves,
// common/connectors/kafka_connector.h).
#pragma once

#include "worker/connectors/connector_runtime.h"

namespace eddy {

const ConnectorRuntime& KafkaRuntime();
const ConnectorRuntime& UpsertKafkaRuntime();

}  // namespace eddy
