#include "client/embedded/embedded_environment.h"

#include "common/base/status_macros.h"

namespace eddy {

absl::StatusOr<std::unique_ptr<TableEnvironment>> StartEmbeddedEnvironment(
    const EmbeddedClusterOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<EmbeddedCluster> cluster, EmbeddedCluster::Start(options));
  const std::string address = cluster->coordinator_address();
  return TableEnvironment::Connect(address, "table-api",
                                   std::shared_ptr<EmbeddedCluster>(std::move(cluster)));
}

}  // namespace eddy
