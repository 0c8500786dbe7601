// The shapes of a statement's answer to the client: a plain success message, or a table of
// string cells (SHOW, DESCRIBE, SET).
#pragma once

#include <string>
#include <vector>

#include "eddy/v1/client.pb.h"

namespace eddy {

v1::ExecuteStatementResponse OkResponse(
    const std::string& message = "Execute statement succeeded.");

v1::ExecuteStatementResponse TableResponse(const std::vector<std::string>& columns,
                                           const std::vector<std::vector<std::string>>& rows);

v1::ExecuteStatementResponse SingleColumnResponse(const std::string& name,
                                                  const std::vector<std::string>& values);

}  // namespace eddy
