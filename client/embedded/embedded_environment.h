// A Table API environment on an embedded cluster (a coordinator and workers in this process) that
// lives as long as the environment. Kept apart from the Table API itself so that a program which
// only talks to a remote cluster links the thin client, not the coordinator and the workers.
#pragma once

#include <memory>

#include "absl/status/statusor.h"
#include "client/embedded/embedded_cluster.h"
#include "client/table_environment.h"

namespace eddy {

absl::StatusOr<std::unique_ptr<TableEnvironment>> StartEmbeddedEnvironment(
    const EmbeddedClusterOptions& options = {});

}  // namespace eddy
