// CREATE FUNCTION / DROP FUNCTION for user-defined functions in C++ (docs/udf.md): the library
// named by USING JAR is read on the coordinator, loaded once to check its ABI version and symbol,
// and its bytes kept with the catalog entry; and the libraries a planned job calls, which the
// coordinator ships to the workers with the job's deployments.
#pragma once

#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/sql/ast.h"
#include "coordinator/catalog/catalog.h"
#include "eddy/v1/plan.pb.h"

namespace eddy {

// `session_jars` (ADD JAR): where a function without USING JAR finds its symbol, the first library
// exporting it.
absl::Status CreateUserFunction(const sql::CreateFunction& ddl, SessionCatalog& catalog,
                                const std::vector<std::string>& session_jars);

// ADD JAR '<path>' (a user function library, loaded to check it) and REMOVE JAR '<path>' on the
// session's list; adding a library twice keeps one entry.
absl::Status ExecuteJarStatement(const sql::JarStatement& jar, std::vector<std::string>* jars);

// Every library a function call of `nodes` refers to (UserFunctionRef anywhere in the plan), once.
absl::StatusOr<std::vector<v1::UserLibrary>> UserLibrariesOf(
    const std::vector<v1::PlanNode>& nodes);

}  // namespace eddy
