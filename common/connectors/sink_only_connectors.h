// The connectors that only write: print (each change as a line on stdout or stderr), blackhole
// (swallows everything), and the internal collect sink that hands a SELECT's rows to the client.
#pragma once

#include "common/connectors/connector_factory.h"

namespace eddy {

const ConnectorFactory& PrintConnector();
const ConnectorFactory& BlackholeConnector();
const ConnectorFactory& CollectConnector();

// The print connector's options as its sink reads them.
struct PrintOptions {
  std::string identifier;       // print-identifier: prefixes each line ("<id>> ")
  bool standard_error = false;  // standard-error
};
absl::StatusOr<PrintOptions> ReadPrintOptions(ConnectorConfig& config);

}  // namespace eddy
